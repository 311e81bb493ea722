# The README's two commands, plus the pieces they are made of.
.PHONY: play test setup bench playtest

## Build the release site and serve the game on http://127.0.0.1:3000
play:
	scripts/play.sh

## Run every test: unit, integration, end-to-end (installs what it needs first)
test:
	scripts/test.sh

## Install the toolchain only
setup:
	scripts/setup.sh test

## Print the benchmarks: the release page's transfer size, and what a turn costs as a campaign grows
bench:
	scripts/bench.sh

## Scripted personas play the configured model (the bundled one by default); a table and a JSON report
playtest:
	scripts/playtest.sh

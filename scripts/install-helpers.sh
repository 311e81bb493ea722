# Sourced by the setup scripts: messages, and Debian packages installed as root.
# The sourcing script sets SAY_PREFIX (e.g. "setup").

say() { printf '[%s] %s\n' "$SAY_PREFIX" "$*"; }
fail() { printf '[%s] error: %s\n' "$SAY_PREFIX" "$*" >&2; exit 1; }
as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }
apt_install() {
  say "installing Debian packages: $*"
  as_root apt-get update -qq
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq "$@" >/dev/null
}

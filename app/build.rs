//! Decides whether the parts loaded on first use (the `#[lazy]` panel bodies, the settings route)
//! are split points, cfg `lazy_chunks`.
//!
//! A split point's wasm imports its chunk's loader from a placeholder module that only
//! `cargo leptos build --split` (or `watch --split`) replaces; a wasm built without the split
//! would ask the browser for that placeholder (`Failed to resolve module specifier
//! "__wasm_split_placeholder__"`) and never hydrate. cargo-leptos reads `--split` from its
//! command line only (not from Cargo.toml), and for the wasm it then links with
//! `-Clink-args=--emit-relocs`, which the build scripts see: so the wasm has split points exactly
//! when it is split. `cargo leptos watch`, `cargo leptos build` and `end-to-end` without `--split`
//! load those parts with the rest of the wasm; `make play` and `make test` split
//! (scripts/build-site.sh). The server (not wasm) keeps them, so a split site's pages name the
//! chunks they will need. The client-side-rendered build (Trunk, `csr`) is never split.

use std::env;

fn main() {
    println!("cargo::rustc-check-cfg=cfg(lazy_chunks)");
    println!("cargo::rerun-if-changed=build.rs");
    // cargo-leptos passes its flags in RUSTFLAGS; a build script is not run again when they
    // change unless asked to.
    println!("cargo::rerun-if-env-changed=RUSTFLAGS");
    println!("cargo::rerun-if-env-changed=CARGO_ENCODED_RUSTFLAGS");
    let wasm = env::var("CARGO_CFG_TARGET_ARCH").is_ok_and(|arch| arch == "wasm32");
    let csr = env::var_os("CARGO_FEATURE_CSR").is_some();
    // The flags this crate is compiled with, separated by 0x1f.
    let split = env::var("CARGO_ENCODED_RUSTFLAGS")
        .unwrap_or_default()
        .split('\u{1f}')
        .any(|flag| flag.contains("--emit-relocs"));
    if !csr && (!wasm || split) {
        println!("cargo::rustc-cfg=lazy_chunks");
    }
}

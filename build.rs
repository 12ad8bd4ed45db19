//! Generates the tables of the enabled (function, format) pairs into `OUT_DIR`: reads cargo's
//! environment, reads the locks of `tables/`, and calls `actlut_codegen::runtime::generate`,
//! which holds every decision (the tables, their check against the locks, the statics that
//! embed them: see its docs).
//!
//! The build script reads cargo's documented environment only (`CARGO_FEATURE_*` through
//! build-helper, `CARGO_CFG_TARGET_ENDIAN`, `OUT_DIR`, `CARGO_MANIFEST_DIR`), never `cfg!`,
//! which would describe the host.

fn main() {
    let manifest_dir = build_helper::cargo::manifest::dir();
    let out_dir = build_helper::out_dir();
    build_helper::rerun_if_changed(manifest_dir.join("build.rs"));
    // `docsrs` is set by docs.rs (and by hand for `cargo doc`): the generated
    // items carry `#[cfg_attr(docsrs, doc(cfg(...)))]`.
    println!("cargo::rustc-check-cfg=cfg(docsrs)");

    let enabled = |feature: &str| build_helper::cargo::features::enabled(feature);
    // The target's byte order, from cargo (cfg! would describe the host).
    let big_endian = match std::env::var("CARGO_CFG_TARGET_ENDIAN").as_deref() {
        Ok("big") => true,
        Ok("little") => false,
        other => fail(&format!("unexpected CARGO_CFG_TARGET_ENDIAN {other:?}")),
    };
    let tables = manifest_dir.join("tables");
    for name in actlut_codegen::runtime::lock_files(&enabled) {
        build_helper::rerun_if_changed(tables.join(name));
    }
    let mut read = |name: &str| {
        let path = tables.join(name);
        std::fs::read_to_string(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))
    };
    let output = actlut_codegen::runtime::generate(&enabled, big_endian, &mut read)
        .unwrap_or_else(|message| fail(&message));
    for (name, bytes) in output.files {
        let path = out_dir.join(&name);
        std::fs::write(&path, bytes)
            .unwrap_or_else(|e| fail(&format!("cannot write {}: {e}", path.display())));
    }
}

fn fail(message: &str) -> ! {
    // Cargo shows a failed build script's stderr: the message once, without
    // a panic's backtrace.
    eprintln!("error: {message}");
    std::process::exit(1);
}

//! Compile Rust GPU kernels with rkc from a build script, the way `cc::Build` compiles C:
//!
//! ```no_run
//! // build.rs, whose `fn main` holds this line:
//! rkc_build::Build::new().file("src/kernels.rs").compile("kernels");
//! ```
//!
//! and in the crate, one line embeds and registers the fat binary:
//!
//! ```ignore
//! rkc_offload::include_fatbin!("kernels")?;
//! ```
//!
//! The fat binary goes to `$OUT_DIR/<name>.fatbin`. Cargo is told to rerun when the kernel
//! file, any file it pulls in with `mod x;`, the compiler, or `RKC`/`RKC_FLAGS`/
//! `RKC_OFFLOAD_ARCH` change; when nothing did (same content hash), rkc is not run again.
//! rkc's diagnostics are forwarded with their spans. The compiler is found through `$RKC`,
//! then `PATH`, then the rkc workspace's `target/{release,debug}/rkc`.
//!
//! ## Building without rkc
//!
//! Each fat binary rkc makes is also kept in the crate, in `rkc-cache/`, named by a hash of
//! what it was made from: the kernel files (their paths relative to the kernel file and their
//! bytes) and the options (architectures, optimisation level, flags). Commit that folder, and
//! the crate builds where rkc is not installed — its users' machines, docs.rs, CI elsewhere —
//! as long as the kernel sources are the ones the cached fat binary was made from; otherwise
//! the build stops with one line saying so. Where rkc is installed it always compiles (the
//! cache never hides a compiler change) and refreshes the entry when its bytes changed,
//! removing the entries of older sources. `Build::cache_dir` moves the folder,
//! `Build::no_cache` turns it off.

use siphasher::sip128::{Hasher128, SipHasher13};
use std::fmt;
use std::hash::Hasher;
use std::path::{Path, PathBuf};
use std::process::Command;

/// A kernel compilation for a build script.
#[derive(Clone, Debug, Default)]
pub struct Build {
    files: Vec<PathBuf>,
    archs: Vec<String>,
    flags: Vec<String>,
    compiler: Option<PathBuf>,
    out_dir: Option<PathBuf>,
    quiet: bool,
    /// Where the fat binaries are kept for builds without rkc.
    cache: Cache,
}

#[derive(Clone, Debug, Default)]
enum Cache {
    #[default]
    InCrate,
    At(PathBuf),
    Off,
}

/// Why a kernel compilation failed, with what to do about it.
#[derive(Debug)]
pub enum Error {
    /// No rkc was found.
    CompilerNotFound,
    /// A needed environment variable (OUT_DIR) is missing: not run from a build script.
    NotInBuildScript(&'static str),
    /// The build asks for no file, or for more than one (rkc compiles one file).
    Files(String),
    Io {
        path: PathBuf,
        error: std::io::Error,
    },
    /// No rkc was found, and the crate's cache has no fat binary made from these kernel
    /// sources with these options.
    NotCached {
        name: String,
        cache: PathBuf,
        /// The cached entries of this name, made from other sources or options.
        others: Vec<PathBuf>,
    },
    /// rkc ran and reported errors; `stderr` is its rendered diagnostics, `errors` one line
    /// per error (its code, message and location), which `compile` gives cargo as
    /// `cargo::error` lines.
    Compile {
        file: PathBuf,
        stderr: String,
        errors: Vec<String>,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::CompilerNotFound => write!(
                f,
                "rkc was not found: set RKC=/path/to/rkc, put rkc on PATH (cargo install --path tools/rkc, \
                 in the rkc repository, after tools/setup.sh), or build it in the rkc workspace \
                 (cargo build --release -p rkc)"
            ),
            Error::NotInBuildScript(var) => {
                write!(f, "{var} is not set: rkc_build runs from a build script (build.rs)")
            }
            Error::NotCached { name, cache, others } => {
                write!(
                    f,
                    "rkc is not installed, and {} holds no fat binary `{name}` made from these kernel sources and options",
                    cache.display()
                )?;
                if !others.is_empty() {
                    let names: Vec<String> = others
                        .iter()
                        .filter_map(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
                        .collect();
                    write!(f, " (it has {}: the kernels changed since)", names.join(", "))?;
                }
                write!(
                    f,
                    "; install rkc (see rkc's README) or rebuild where it is installed and commit {}",
                    cache.display()
                )
            }
            Error::Files(m) => write!(f, "{m}"),
            Error::Io { path, error } => write!(f, "{}: {error}", path.display()),
            Error::Compile { file, stderr, .. } => {
                write!(f, "rkc could not compile {}:\n{stderr}", file.display())
            }
        }
    }
}

impl std::error::Error for Error {}

impl Build {
    pub fn new() -> Build {
        Build::default()
    }

    /// The kernel file (one per build; rkc compiles what its kernels reach).
    pub fn file(&mut self, path: impl AsRef<Path>) -> &mut Build {
        self.files.push(path.as_ref().to_path_buf());
        self
    }

    /// Adds a GPU architecture (`sm_90`, `gfx942`...); without any, rkc's default
    /// (`sm_75,sm_80,sm_86,sm_89,sm_90,sm_100,sm_120,gfx942`) or `$RKC_OFFLOAD_ARCH`.
    pub fn offload_arch(&mut self, arch: &str) -> &mut Build {
        self.archs.push(arch.to_string());
        self
    }

    /// Adds an rkc flag, e.g. `-C checks=off`.
    pub fn flag(&mut self, flag: &str) -> &mut Build {
        self.flags.extend(flag.split_whitespace().map(str::to_string));
        self
    }

    /// Uses this rkc instead of searching for one.
    pub fn compiler(&mut self, path: impl AsRef<Path>) -> &mut Build {
        self.compiler = Some(path.as_ref().to_path_buf());
        self
    }

    /// Writes the fat binary to this folder instead of `$OUT_DIR`.
    pub fn out_dir(&mut self, dir: impl AsRef<Path>) -> &mut Build {
        self.out_dir = Some(dir.as_ref().to_path_buf());
        self
    }

    /// Keeps the cached fat binaries in this folder (relative to the crate) instead of
    /// `rkc-cache`.
    pub fn cache_dir(&mut self, dir: impl AsRef<Path>) -> &mut Build {
        self.cache = Cache::At(dir.as_ref().to_path_buf());
        self
    }

    /// Keeps no copy of the fat binary in the crate: building then always needs rkc.
    pub fn no_cache(&mut self) -> &mut Build {
        self.cache = Cache::Off;
        self
    }

    /// Prints no `cargo:` lines (for use outside build scripts, e.g. in tests).
    pub fn quiet(&mut self) -> &mut Build {
        self.quiet = true;
        self
    }

    /// Compiles, or stops the build with rkc's diagnostics and what to do.
    pub fn compile(&self, name: &str) {
        if let Err(e) = self.try_compile(name) {
            // Each error also as a line of cargo's own (`error: ...` in cargo's output, and in
            // its JSON messages); cargo shows a failed build script's stderr, where the
            // rendered diagnostics are, and the panic ends the build.
            if let Error::Compile { errors, .. } = &e {
                for line in errors {
                    self.say(format!("cargo::error={line}"));
                }
            }
            eprintln!("{e}");
            panic!("rkc_build: compiling the kernels `{name}` failed (see above)");
        }
    }

    fn say(&self, line: String) {
        if !self.quiet {
            println!("{line}");
        }
    }

    /// Compiles and returns the fat binary's path.
    pub fn try_compile(&self, name: &str) -> Result<PathBuf, Error> {
        let [file] = self.files.as_slice() else {
            return Err(Error::Files(format!(
                "rkc_build compiles one kernel file per build, {} given; put the kernels in one file (it may `mod` others)",
                self.files.len()
            )));
        };
        let out_dir = match &self.out_dir {
            Some(d) => d.clone(),
            None => PathBuf::from(
                std::env::var_os("OUT_DIR").ok_or(Error::NotInBuildScript("OUT_DIR"))?,
            ),
        };
        for var in ["RKC", "RKC_FLAGS", "RKC_OFFLOAD_ARCH"] {
            self.say(format!("cargo:rerun-if-env-changed={var}"));
        }
        let sources = module_files(file);
        for s in &sources {
            self.say(format!("cargo:rerun-if-changed={}", s.display()));
        }

        let mut args: Vec<String> = Vec::new();
        let archs = if self.archs.is_empty() {
            std::env::var("RKC_OFFLOAD_ARCH").ok().into_iter().collect()
        } else {
            vec![self.archs.join(",")]
        };
        if let Some(a) = archs.first() {
            args.push("--offload-arch".into());
            args.push(a.clone());
        }
        // Cargo's optimisation level; bounds checks stay on in every profile, as Rust's do.
        if let Ok(level) = std::env::var("OPT_LEVEL") {
            let level = match level.as_str() {
                "0" | "1" | "2" | "3" => level,
                _ => "3".into(),
            };
            args.push(format!("-O{level}"));
        }
        args.extend(self.flags.iter().cloned());
        if let Ok(extra) = std::env::var("RKC_FLAGS") {
            args.extend(extra.split_whitespace().map(str::to_string));
        }
        let key = content_key(file, &sources, &args)?;
        let cache = self.cache_entry(name, &key);
        // Panic locations name the kernel file relative to the crate, as rustc's do, so that
        // the fat binary does not depend on where the crate was checked out (and the cache's
        // key leaves this argument out for the same reason).
        if let Some(dir) = std::env::var_os("CARGO_MANIFEST_DIR") {
            args.push("--remap-path-prefix".into());
            args.push(format!("{}=", PathBuf::from(dir).display()));
        }
        let output = out_dir.join(format!("{name}.fatbin"));

        // Inside the rkc workspace (its examples) a missing rkc is built; elsewhere the cache
        // stands in for it.
        let compiler = match &self.compiler {
            Some(c) => c.clone(),
            None => match find_compiler().or_else(|| self.build_workspace_compiler()) {
                Some(c) => c,
                None => {
                    return match &cache {
                        Some(entry) => self.use_cached(entry, &output),
                        None => Err(Error::CompilerNotFound),
                    };
                }
            },
        };
        self.say(format!("cargo:rerun-if-changed={}", compiler.display()));

        // Skip the work when nothing that goes into the output changed: the sources and
        // options (the cache's key) and the compiler.
        let compiler_stamp = std::fs::metadata(&compiler)
            .map(|m| format!("{} {:?}", m.len(), m.modified().ok()))
            .unwrap_or_default();
        let stamp = format!("{}.{} {compiler_stamp}", key.sources, key.options);
        let stamp_file = out_dir.join(format!("{name}.fatbin.hash"));
        if output.is_file() && std::fs::read_to_string(&stamp_file).is_ok_and(|s| s == stamp) {
            if let Some(entry) = &cache {
                self.store_cached(entry, &output);
            }
            return Ok(output);
        }

        let result = Command::new(&compiler)
            .arg("--error-format=json")
            .arg(file)
            .arg("-o")
            .arg(&output)
            .args(&args)
            .output()
            .map_err(|error| Error::Io { path: compiler.clone(), error })?;
        let stderr = String::from_utf8_lossy(&result.stderr).into_owned();
        if !result.status.success() {
            let (stderr, errors) = read_json_diagnostics(&stderr);
            return Err(Error::Compile { file: file.clone(), stderr, errors });
        }
        for line in stderr.lines().filter(|l| l.starts_with("warning:")) {
            self.say(format!("cargo:warning={}", line.trim_start_matches("warning:").trim()));
        }
        std::fs::write(&stamp_file, stamp)
            .map_err(|error| Error::Io { path: stamp_file.clone(), error })?;
        if let Some(entry) = &cache {
            self.store_cached(entry, &output);
        }
        Ok(output)
    }
}

/// Where one fat binary is cached: `<dir>/<name>.<sources>.<options>.fatbin`, two hashes so
/// that the entries of other options (a debug and a release build) stay while those of older
/// sources go.
#[derive(Clone, Debug)]
struct CacheEntry {
    dir: PathBuf,
    name: String,
    sources: String,
    path: PathBuf,
}

/// What a fat binary is made from, as two stable hashes: the kernel files (their paths relative
/// to the kernel file, and their bytes), and the options.
struct ContentKey {
    sources: String,
    options: String,
}

fn content_key(file: &Path, sources: &[PathBuf], args: &[String]) -> Result<ContentKey, Error> {
    let base = file.parent().unwrap_or(Path::new(""));
    let mut parts: Vec<Vec<u8>> = Vec::new();
    for s in sources {
        let relative = s.strip_prefix(base).unwrap_or(s);
        let components: Vec<String> =
            relative.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
        parts.push(components.join("/").into_bytes());
        parts.push(std::fs::read(s).map_err(|error| Error::Io { path: s.clone(), error })?);
    }
    let parts: Vec<&[u8]> = parts.iter().map(Vec::as_slice).collect();
    let args: Vec<&[u8]> = args.iter().map(|a| a.as_bytes()).collect();
    Ok(ContentKey {
        sources: stable_hash(&parts)[..16].to_string(),
        options: stable_hash(&args)[..8].to_string(),
    })
}

/// A 128-bit SipHash-1-3 with zero keys: stable across Rust versions and machines (std's
/// `DefaultHasher` is not), so a hash made where rkc is installed names the entry that a
/// build elsewhere looks for. Content addressing against stale files, not an integrity check:
/// the cache is the crate's own source, as trusted as its kernels.rs.
fn stable_hash(parts: &[&[u8]]) -> String {
    let mut h = SipHasher13::new();
    for part in parts {
        h.write(&(part.len() as u64).to_le_bytes());
        h.write(part);
    }
    format!("{:032x}", h.finish128().as_u128())
}

impl Build {
    /// The cache entry of this build, or `None` when the cache is off.
    fn cache_entry(&self, name: &str, key: &ContentKey) -> Option<CacheEntry> {
        let crate_dir =
            std::env::var_os("CARGO_MANIFEST_DIR").map(PathBuf::from).unwrap_or_default();
        let dir = match &self.cache {
            Cache::Off => return None,
            Cache::InCrate => crate_dir.join("rkc-cache"),
            Cache::At(d) => crate_dir.join(d),
        };
        let path = dir.join(format!("{name}.{}.{}.fatbin", key.sources, key.options));
        Some(CacheEntry { dir, name: name.to_string(), sources: key.sources.clone(), path })
    }

    /// The cached entries of the same name as `entry`, other than it.
    fn cached_others(entry: &CacheEntry) -> Vec<PathBuf> {
        let prefix = format!("{}.", entry.name);
        let Ok(dir) = std::fs::read_dir(&entry.dir) else { return Vec::new() };
        let mut others: Vec<PathBuf> = dir
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p != &entry.path)
            .filter(|p| {
                p.file_name().map(|n| n.to_string_lossy()).is_some_and(|n| {
                    n.strip_prefix(&prefix).is_some_and(|rest| {
                        rest.ends_with(".fatbin") && rest.matches('.').count() == 2
                    })
                })
            })
            .collect();
        others.sort();
        others
    }

    /// Without rkc: the cached fat binary made from these sources and options, copied to the
    /// output, or the error that says what to do.
    fn use_cached(&self, entry: &CacheEntry, output: &Path) -> Result<PathBuf, Error> {
        self.say(format!("cargo:rerun-if-changed={}", entry.dir.display()));
        let bytes = match std::fs::read(&entry.path) {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(Error::NotCached {
                    name: entry.name.clone(),
                    cache: entry.dir.clone(),
                    others: Build::cached_others(entry),
                });
            }
            Err(error) => return Err(Error::Io { path: entry.path.clone(), error }),
        };
        // The runtime checks the structure again when it registers it; this says at build
        // time which file is wrong.
        if let Err(e) = offload_binary::read(&bytes) {
            return Err(Error::Io {
                path: entry.path.clone(),
                error: std::io::Error::new(
                    std::io::ErrorKind::InvalidData,
                    format!("not a fat binary ({e}); delete it and rebuild where rkc is installed"),
                ),
            });
        }
        std::fs::write(output, &bytes)
            .map_err(|error| Error::Io { path: output.to_path_buf(), error })?;
        self.say(format!(
            "cargo:warning=rkc is not installed: using the fat binary cached in {}",
            entry.path.display()
        ));
        Ok(output.to_path_buf())
    }

    /// With rkc: keeps a copy of the fat binary just made (written only when its bytes
    /// changed, through a temporary file and a rename so that a reader never sees half of
    /// one) and removes the entries of older sources. A cache that cannot be written (a
    /// read-only checkout) costs a warning, not the build.
    fn store_cached(&self, entry: &CacheEntry, output: &Path) {
        let result = (|| -> std::io::Result<()> {
            let bytes = std::fs::read(output)?;
            if std::fs::read(&entry.path).is_ok_and(|old| old == bytes) {
                return Ok(());
            }
            std::fs::create_dir_all(&entry.dir)?;
            let temporary = entry.dir.join(format!(".{}.{}.tmp", entry.name, std::process::id()));
            std::fs::write(&temporary, &bytes)?;
            std::fs::rename(&temporary, &entry.path)?;
            let stale = format!("{}.{}.", entry.name, entry.sources);
            for other in Build::cached_others(entry) {
                if other.file_name().is_some_and(|n| !n.to_string_lossy().starts_with(&stale)) {
                    std::fs::remove_file(other)?;
                }
            }
            Ok(())
        })();
        if let Err(e) = result {
            self.say(format!(
                "cargo:warning=cannot keep the fat binary in {}: {e}",
                entry.dir.display()
            ));
        }
    }
}

impl Build {
    /// Inside the rkc workspace, before rkc is built: builds it with cargo in a target folder
    /// of its own (the outer cargo holds the workspace's), once; slow the first time.
    fn build_workspace_compiler(&self) -> Option<PathBuf> {
        let start = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR")?);
        let root =
            start.ancestors().find(|d| d.join("tools/rkc/Cargo.toml").is_file())?.to_path_buf();
        let target = root.join("target/rkc-build-helper");
        self.say(
            "cargo:warning=rkc is not built yet: building it (once) in target/rkc-build-helper"
                .into(),
        );
        let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
        let status = Command::new(cargo)
            .args(["build", "--release", "-q", "-p", "rkc", "--target-dir"])
            .arg(&target)
            .current_dir(&root)
            .status()
            .ok()?;
        let built = target.join("release/rkc");
        (status.success() && built.is_file()).then_some(built)
    }
}

/// `$RKC`, then `rkc` on PATH, then the rkc workspace's build of it (found above the crate
/// being built, for the workspace's own examples).
fn find_compiler() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("RKC") {
        return Some(PathBuf::from(p));
    }
    if let Some(path) = std::env::var_os("PATH")
        && let Some(p) = std::env::split_paths(&path).map(|d| d.join("rkc")).find(|p| p.is_file())
    {
        return Some(p);
    }
    let start = std::env::var_os("CARGO_MANIFEST_DIR").map(PathBuf::from)?;
    for dir in start.ancestors() {
        for profile in ["release", "debug", "rkc-build-helper/release"] {
            let candidate = dir.join("target").join(profile).join("rkc");
            if candidate.is_file() && dir.join("tools/rkc").is_dir() {
                return Some(candidate);
            }
        }
    }
    None
}

/// The kernel file and every file it pulls in with `mod name;` (name.rs or name/mod.rs, also
/// with `#[path]`), recursively; unparsable files are still watched.
fn module_files(root: &Path) -> Vec<PathBuf> {
    let mut out = vec![root.to_path_buf()];
    let mut k = 0;
    while k < out.len() {
        let file = out[k].clone();
        k += 1;
        let Ok(text) = std::fs::read_to_string(&file) else { continue };
        let Ok(parsed) = syn::parse_file(&text) else { continue };
        let dir = file.parent().map(Path::to_path_buf).unwrap_or_default();
        // A `mod x;` in foo.rs (not mod.rs/lib.rs/main.rs) lives in foo/x.rs.
        let stem = file.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        let base = if ["mod", "lib", "main"].contains(&stem.as_str()) || k == 1 {
            dir.clone()
        } else {
            dir.join(&stem)
        };
        for item in &parsed.items {
            let syn::Item::Mod(m) = item else { continue };
            if m.content.is_some() {
                continue;
            }
            let explicit = m.attrs.iter().find_map(|a| match &a.meta {
                syn::Meta::NameValue(nv) if nv.path.is_ident("path") => match &nv.value {
                    syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Str(s), .. }) => {
                        Some(dir.join(s.value()))
                    }
                    _ => None,
                },
                _ => None,
            });
            let name = m.ident.to_string();
            let candidates = match explicit {
                Some(p) => vec![p],
                None => vec![base.join(format!("{name}.rs")), base.join(&name).join("mod.rs")],
            };
            if let Some(found) = candidates.into_iter().find(|p| p.is_file())
                && !out.contains(&found)
            {
                out.push(found);
            }
        }
    }
    out
}

/// rkc's `--error-format=json` output as the human text (each diagnostic's `rendered`) and
/// one line per error: `error[RK0301]: mismatched types (src/kernels.rs:4:18: expected ...)`.
/// Lines that are not JSON (an rkc too old for the flag, a crash) are kept as they are.
fn read_json_diagnostics(stderr: &str) -> (String, Vec<String>) {
    let mut rendered = String::new();
    // Errors with a code or a place, and the others (the closing "could not compile", or an
    // error about a file), which are reported only when there is nothing more precise.
    let (mut errors, mut general) = (Vec::new(), Vec::new());
    for line in stderr.lines() {
        let Ok(d) = serde_json::from_str::<serde_json::Value>(line) else {
            rendered.push_str(line);
            rendered.push('\n');
            continue;
        };
        rendered.push_str(d["rendered"].as_str().unwrap_or_default());
        let message = d["message"].as_str().unwrap_or_default();
        let code = d["code"]["code"].as_str();
        let mut summary = match code {
            Some(code) => format!("error[{code}]: {message}"),
            None => format!("error: {message}"),
        };
        let primary =
            d["spans"].as_array().and_then(|s| s.iter().find(|s| s["is_primary"] == true));
        if code.is_none() && primary.is_none() {
            general.push(summary);
            continue;
        }
        if let Some(span) =
            d["spans"].as_array().and_then(|s| s.iter().find(|s| s["is_primary"] == true))
        {
            summary.push_str(&format!(
                " ({}:{}:{}",
                span["file_name"].as_str().unwrap_or_default(),
                span["line_start"],
                span["column_start"]
            ));
            if let Some(label) = span["label"].as_str() {
                summary.push_str(&format!(": {label}"));
            }
            summary.push(')');
        }
        errors.push(summary);
    }
    if errors.is_empty() {
        errors = general;
    }
    (rendered, errors)
}

#[cfg(test)]
mod tests {
    /// rkc's JSON errors become one summary line each and their rendered text; the closing
    /// "could not compile" line is kept only when nothing more precise was said; text that is
    /// not JSON passes through.
    #[test]
    fn json_diagnostics_become_cargo_errors() {
        let stderr = concat!(
            r#"{"$message_type":"diagnostic","message":"mismatched types","code":{"code":"RK0301","explanation":null},"level":"error","spans":[{"file_name":"src/kernels.rs","byte_start":92,"byte_end":95,"line_start":4,"line_end":4,"column_start":18,"column_end":21,"is_primary":true,"text":[],"label":"expected `u32`, found `{float}`"}],"children":[],"rendered":"error[RK0301]: mismatched types\n"}"#,
            "\n",
            r#"{"$message_type":"diagnostic","message":"could not compile `src/kernels.rs` due to 1 previous error","code":null,"level":"error","spans":[],"children":[],"rendered":"error: could not compile\n"}"#,
            "\nthread 'main' panicked\n"
        );
        let (rendered, errors) = super::read_json_diagnostics(stderr);
        assert_eq!(
            errors,
            [
                "error[RK0301]: mismatched types (src/kernels.rs:4:18: expected `u32`, found `{float}`)"
            ]
        );
        assert_eq!(
            rendered,
            "error[RK0301]: mismatched types\nerror: could not compile\nthread 'main' panicked\n"
        );
        let (_, errors) = super::read_json_diagnostics(stderr.split('\n').nth(1).unwrap());
        assert_eq!(errors, ["error: could not compile `src/kernels.rs` due to 1 previous error"]);
    }

    use super::*;

    #[test]
    fn finds_module_files() {
        let dir = std::env::temp_dir().join(format!("rkc-build-test-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("kernels")).unwrap();
        std::fs::write(
            dir.join("kernels.rs"),
            "mod helpers;\nmod inline { }\n#[path = \"other.rs\"] mod x;\n",
        )
        .unwrap();
        std::fs::write(dir.join("helpers.rs"), "").unwrap();
        std::fs::write(dir.join("other.rs"), "mod deep;").unwrap();
        std::fs::write(dir.join("kernels/deep.rs"), "").unwrap();
        let files = module_files(&dir.join("kernels.rs"));
        let names: Vec<String> =
            files.iter().map(|p| p.strip_prefix(&dir).unwrap().display().to_string()).collect();
        assert_eq!(names, ["kernels.rs", "helpers.rs", "other.rs"]);
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn one_file_per_build() {
        let e = Build::new().quiet().out_dir("/tmp").try_compile("k").unwrap_err();
        assert!(e.to_string().contains("one kernel file per build, 0 given"));
    }
}

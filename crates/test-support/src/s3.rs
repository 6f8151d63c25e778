//! Real S3-compatible servers for tests.
//!
//! - [`S3Server::s3s_fs`]: s3s-fs (crates.io), which verifies SigV4 signatures and the expiry
//!   of presigned URLs and honours `If-None-Match: *` on `PUT`, like AWS. It has no CORS.
//!   Installed on first use with `cargo install` into `$HOME/.cache/rifa/tools` (~2 minutes).
//! - [`S3Server::moto`]: moto's server (PyPI), which answers CORS preflights (for browser
//!   uploads) and honours `If-None-Match: *`, but checks neither signatures nor expiry.
//!
//! ```no_run
//! let server = rifa_test_support::s3::S3Server::s3s_fs();
//! // … an S3 client on server.endpoint() with server.access_key / server.secret_key,
//! // path-style addressing, any region …
//! ```

use std::fs::File;
use std::path::PathBuf;
use std::process::Command;

use crate::python::{ServerProcess, free_port, python_tool};

/// The moto release the tests were written against.
const MOTO: &str = "moto[server]==5.2.5";
/// The s3s-fs release the tests were written against (0.17 needs a newer rustc).
const S3S_FS_VERSION: &str = "0.14.1";

/// Which server a [`S3Server`] runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum S3Flavour {
    S3sFs,
    Moto,
}

/// An S3-compatible server on 127.0.0.1 with path-style addressing, killed when dropped.
pub struct S3Server {
    process: ServerProcess,
    pub flavour: S3Flavour,
    pub access_key: String,
    pub secret_key: String,
    /// Where s3s-fs keeps the buckets (a scratch directory); moto keeps them in memory.
    pub data_dir: Option<PathBuf>,
}

impl S3Server {
    /// s3s-fs on a free port over a new scratch directory, with fresh random credentials.
    #[must_use]
    pub fn s3s_fs() -> Self {
        let program = s3s_fs_program();
        let dir = crate::scratch_dir();
        let access_key = format!("AK{}", uuid::Uuid::new_v4().simple());
        let secret_key = uuid::Uuid::new_v4().simple().to_string();
        let port = free_port();
        let mut command = Command::new(program);
        command
            .args(["--host", "127.0.0.1", "--port", &port.to_string()])
            .args(["--access-key", &access_key, "--secret-key", &secret_key])
            .arg(&dir);
        Self {
            process: ServerProcess::start(command, port),
            flavour: S3Flavour::S3sFs,
            access_key,
            secret_key,
            data_dir: Some(dir),
        }
    }

    /// moto's S3 on a free port, installed into the test venv if needed. It accepts any
    /// credentials; these are for the client to sign with.
    #[must_use]
    pub fn moto() -> Self {
        let program = python_tool(MOTO, "moto_server");
        let port = free_port();
        let mut command = Command::new(program);
        command.args(["-H", "127.0.0.1", "-p", &port.to_string()]);
        Self {
            process: ServerProcess::start(command, port),
            flavour: S3Flavour::Moto,
            access_key: "testing".to_owned(),
            secret_key: "testing".to_owned(),
            data_dir: None,
        }
    }

    /// `http://127.0.0.1:PORT`.
    #[must_use]
    pub fn endpoint(&self) -> String {
        format!("http://127.0.0.1:{}", self.process.port)
    }

    /// Stops the server: connections are refused from now on.
    pub fn stop(&mut self) {
        self.process.stop();
    }
}

/// The directory tools built from crates.io are installed under: `$HOME/.cache/rifa/tools`.
#[must_use]
fn tools_dir() -> PathBuf {
    let home = std::env::var_os("HOME").expect("HOME is not set");
    PathBuf::from(home).join(".cache/rifa/tools")
}

/// The s3s-fs binary, installed with `cargo install --locked` on first use. Test binaries
/// running at once serialise on a lock file so cargo installs it once. The build uses a target
/// directory of its own, so it never waits on the lock of the build running the tests.
fn s3s_fs_program() -> PathBuf {
    let root = tools_dir();
    std::fs::create_dir_all(&root).expect("tools dir");
    let lock = File::create(root.join("s3s-fs.lock")).expect("tools lock file");
    lock.lock().expect("tools lock");
    let program = root.join("bin/s3s-fs");
    if !program.exists() {
        let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
        let status = Command::new(cargo)
            .args(["install", "--locked", "--version", S3S_FS_VERSION, "s3s-fs"])
            .args(["--features", "binary", "--root"])
            .arg(&root)
            .arg("--target-dir")
            .arg(root.join("target"))
            .env_remove("CARGO_TARGET_DIR")
            .status()
            .expect("failed to run cargo install");
        assert!(
            status.success(),
            "cargo install s3s-fs failed with {status}"
        );
    }
    program
}

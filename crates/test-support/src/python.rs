//! Test servers that come from PyPI (moto's S3, aiosmtpd's SMTP), installed on first use into
//! the same venv outside the clone that the fuzzing script uses.

use std::fs::File;
use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The venv's directory: `RIFA_VENV`, or `$HOME/.cache/rifa/venv`.
#[must_use]
pub(crate) fn venv_dir() -> PathBuf {
    std::env::var_os("RIFA_VENV").map_or_else(
        || {
            let home = std::env::var_os("HOME").expect("HOME is not set");
            PathBuf::from(home).join(".cache/rifa/venv")
        },
        PathBuf::from,
    )
}

/// The path of `program` in the venv, after installing `requirement` (a pip specifier such as
/// `moto[server]==5.1.0`) unless `program` is already there. Test binaries running in parallel
/// serialise on a lock file so pip never runs twice at once.
#[must_use]
pub(crate) fn python_tool(requirement: &str, program: &str) -> PathBuf {
    let venv = venv_dir();
    std::fs::create_dir_all(venv.parent().expect("venv has a parent")).expect("cache dir");
    let lock = File::create(venv.with_extension("lock")).expect("venv lock file");
    lock.lock().expect("venv lock");
    let python = venv.join("bin/python");
    if !python.exists() {
        run(Command::new("python3").args(["-m", "venv"]).arg(&venv));
    }
    let tool = venv.join("bin").join(program);
    if !tool.exists() {
        run(Command::new(&python).args([
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
            requirement,
        ]));
    }
    tool
}

fn run(command: &mut Command) {
    let status = command.status().expect("failed to start a setup command");
    assert!(status.success(), "{command:?} failed with {status}");
}

/// A free TCP port on 127.0.0.1 (free when asked; the caller binds it right away).
#[must_use]
pub(crate) fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .expect("no free port")
        .port()
}

/// A child process killed when dropped, so a failing test never leaves a server behind.
pub(crate) struct ServerProcess {
    child: Child,
    pub port: u16,
}

impl ServerProcess {
    /// Starts `command` (which must listen on `port`) and waits until the port accepts
    /// connections.
    #[must_use]
    pub(crate) fn start(mut command: Command, port: u16) -> Self {
        let child = command
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("failed to start a test server");
        let server = Self { child, port };
        let deadline = Instant::now() + Duration::from_secs(60);
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(
                Instant::now() < deadline,
                "{command:?} did not listen on {port}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        server
    }

    /// Stops the server (to test what happens while it is down).
    pub(crate) fn stop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        self.stop();
    }
}

//! The first run of the real binary: the first admin's password survives a failed start, stays
//! out of the log stream, and waits in a private file until that admin signs in.

use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use reqwest::StatusCode;
use serde_json::json;

/// `rifa-api serve` as an operator starts it, its stdout and stderr gathered (as a log shipper
/// would gather them: neither is a terminal).
struct ApiProcess {
    child: Child,
    output: Arc<Mutex<String>>,
}

impl ApiProcess {
    fn start(database_url: &str, data_dir: &Path, bind: &str) -> Self {
        let mut child = Command::new(env!("CARGO_BIN_EXE_rifa-api"))
            .arg("serve")
            .env("DATABASE_URL", database_url)
            .env("RIFA_DATA_DIR", data_dir)
            .env("RIFA_BIND", bind)
            .env("RIFA_BOOTSTRAP_ADMIN", "true")
            .env("RIFA_DEMO_DATA", "false")
            .env("RIFA_LOG_FORMAT", "json")
            .env("RIFA_WORKERS", "1")
            .env_remove("RIFA_JWT_SECRET")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let output = Arc::new(Mutex::new(String::new()));
        let streams: [Box<dyn Read + Send>; 2] = [
            Box::new(child.stdout.take().unwrap()),
            Box::new(child.stderr.take().unwrap()),
        ];
        for stream in streams {
            let output = output.clone();
            std::thread::spawn(move || {
                for line in BufReader::new(stream).lines().map_while(Result::ok) {
                    let mut all = output.lock().unwrap();
                    all.push_str(&line);
                    all.push('\n');
                }
            });
        }
        Self { child, output }
    }

    fn output(&self) -> String {
        self.output.lock().unwrap().clone()
    }

    /// The port it says it listens on, once its log stream (JSON lines, written by a background
    /// thread) has started too.
    fn wait_until_listening(&mut self) -> u16 {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let output = self.output();
            let logging = output.lines().any(|line| line.starts_with('{'));
            if let Some(rest) = output.split("listening on http://").nth(1)
                && logging
            {
                let address = rest.split_whitespace().next().unwrap();
                return address.rsplit(':').next().unwrap().parse().unwrap();
            }
            assert!(
                self.child.try_wait().unwrap().is_none(),
                "the API exited:\n{output}"
            );
            assert!(
                Instant::now() < deadline,
                "the API did not start:\n{output}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    fn wait_for_exit(&mut self) -> std::process::ExitStatus {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                // Let the readers drain what the process wrote last.
                std::thread::sleep(Duration::from_millis(200));
                return status;
            }
            assert!(Instant::now() < deadline, "the API did not exit");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    fn stop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        std::thread::sleep(Duration::from_millis(200));
    }
}

impl Drop for ApiProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn password_file(data_dir: &Path) -> PathBuf {
    data_dir.join("first-admin-password")
}

/// The login the file holds.
fn kept_login(data_dir: &Path) -> (String, String) {
    let content = std::fs::read_to_string(password_file(data_dir)).unwrap();
    let field = |name: &str| {
        content
            .lines()
            .find_map(|line| line.strip_prefix(name))
            .unwrap()
            .to_owned()
    };
    (field("username: "), field("password: "))
}

async fn login(port: u16, username: &str, password: &str) -> StatusCode {
    reqwest::Client::new()
        .post(format!("http://127.0.0.1:{port}/api/admin/login"))
        .json(&json!({"username": username, "password": password}))
        .send()
        .await
        .unwrap()
        .status()
}

async fn databases() -> Vec<(String, PathBuf)> {
    let mut all = vec![rifa_test_support::sqlite_database()];
    if let Some(url) = rifa_test_support::postgres_database().await {
        all.push((url, rifa_test_support::scratch_dir()));
    }
    all
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_start_that_cannot_bind_its_port_creates_no_admin() {
    for (url, data_dir) in databases().await {
        let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let bind = taken.local_addr().unwrap().to_string();
        let mut api = ApiProcess::start(&url, &data_dir, &bind);
        let status = api.wait_for_exit();
        assert!(!status.success(), "{}", api.output());
        assert!(api.output().contains("failed to bind"), "{}", api.output());
        assert!(!password_file(&data_dir).exists());
        drop(taken);

        // The admin is created on the next start, which can bind: nothing was lost.
        let mut api = ApiProcess::start(&url, &data_dir, "127.0.0.1:0");
        let port = api.wait_until_listening();
        let (username, password) = kept_login(&data_dir);
        assert_eq!(username, "admin");
        assert_eq!(login(port, &username, &password).await, StatusCode::OK);
        api.stop();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_first_admins_password_waits_in_a_private_file_until_the_first_sign_in() {
    for (url, data_dir) in databases().await {
        let mut api = ApiProcess::start(&url, &data_dir, "127.0.0.1:0");
        api.wait_until_listening();
        let file = password_file(&data_dir);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&file).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600, "{}", file.display());
        }
        let (username, password) = kept_login(&data_dir);
        api.stop();
        let first_output = api.output();

        // A later start says where the login is, and still never prints the password.
        let mut api = ApiProcess::start(&url, &data_dir, "127.0.0.1:0");
        let port = api.wait_until_listening();
        assert!(
            api.output().contains(&file.display().to_string()),
            "{}",
            api.output()
        );
        assert_eq!(
            login(port, &username, "not-the-password").await,
            StatusCode::UNAUTHORIZED
        );
        assert!(file.exists(), "a failed sign-in keeps the file");
        assert_eq!(login(port, &username, &password).await, StatusCode::OK);
        assert!(!file.exists(), "the first sign-in deletes the file");
        api.stop();

        for output in [first_output, api.output()] {
            assert!(
                !output.contains(&password),
                "the password reached the log stream"
            );
            // The log stream is JSON lines; the terminal lines go to stderr only when it is one.
            assert!(output.lines().any(|line| line.starts_with('{')), "{output}");
        }
    }
}

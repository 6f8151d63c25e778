//! What the API writes to disk is its own user's alone, whatever the umask: the data directory,
//! the token secret, the SQLite database with its WAL and shared memory, the file outbox's
//! e-mails and the local store's proofs (issue 11).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::Write as _;
use std::os::unix::fs::PermissionsExt as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use rifa_api::config::StorageConfig;

use crate::helpers::TestApp;
use crate::proofs::{PNG, buy, send_proof, shop};

fn mode(path: &Path) -> u32 {
    std::fs::metadata(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .permissions()
        .mode()
        & 0o777
}

/// Every file and directory under `root`, `root` included.
fn tree(root: &Path) -> Vec<PathBuf> {
    let mut found = vec![root.to_path_buf()];
    if root.is_dir() {
        for entry in std::fs::read_dir(root).unwrap() {
            found.extend(tree(&entry.unwrap().path()));
        }
    }
    found
}

fn assert_private(paths: &[PathBuf]) {
    let open: Vec<String> = paths
        .iter()
        .filter(|p| mode(p) != if p.is_dir() { 0o700 } else { 0o600 })
        .map(|p| format!("{} {:o}", p.display(), mode(p)))
        .collect();
    assert!(open.is_empty(), "readable by others: {open:?}");
}

#[test]
fn the_binary_creates_its_data_directory_secret_and_database_for_its_owner_only() {
    let scratch = rifa_test_support::scratch_dir();
    let data_dir = scratch.join("fresh").join("data");
    // `sh` sets the umask most systems default to, then becomes the binary.
    let mut child = Command::new("sh")
        .args(["-c", "umask 022; exec \"$0\" \"$@\""])
        .arg(env!("CARGO_BIN_EXE_rifa-api"))
        .args(["create-admin", "--username", "duena"])
        .env("RIFA_DATA_DIR", &data_dir)
        .env_remove("DATABASE_URL")
        .env_remove("RIFA_JWT_SECRET")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"Caballo-correcto-bateria-grapa-1987\n")
        .unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );

    assert!(data_dir.join("jwt-secret").is_file());
    assert!(data_dir.join("rifa.db").is_file());
    assert_private(&tree(&scratch.join("fresh")));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_database_e_mails_and_proofs_are_private_to_the_owner_whatever_the_umask() {
    rustix::process::umask(rustix::fs::Mode::from_raw_mode(0o022));
    let app = TestApp::sqlite().await;
    let StorageConfig::Local(uploads) = app.config.storage.clone() else {
        panic!("the tests' default is the local store");
    };
    let outbox = app.config.mail.outbox_dir.clone();
    let database = app.config.data_dir.join("rifa.db");

    let shop = shop(&app).await;
    let purchase = buy(&app, shop, &[3], "ana@example.com").await;
    send_proof(&app, &purchase, PNG, "comprobante.png", "image/png").await;
    let deadline = Instant::now() + Duration::from_secs(10);
    while !tree(&outbox)
        .iter()
        .any(|p| p.extension().is_some_and(|x| x == "eml"))
    {
        assert!(
            Instant::now() < deadline,
            "no e-mail in {}",
            outbox.display()
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }

    let mut files = vec![database.clone()];
    for suffix in ["-wal", "-shm"] {
        let path = PathBuf::from(format!("{}{suffix}", database.display()));
        assert!(path.exists(), "{} while the API runs", path.display());
        files.push(path);
    }
    files.extend(tree(&outbox));
    let proofs = tree(&uploads);
    assert!(
        proofs
            .iter()
            .any(|p| p.extension().is_some_and(|x| x == "png"))
    );
    files.extend(proofs);
    assert_private(&files);
}

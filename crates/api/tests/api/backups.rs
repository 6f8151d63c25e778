//! Backups that come back: the documented procedures, run and restored into a second server
//! (infra/README.md, "Backups"): `rifa-api backup` on SQLite, `pg_dump` / `pg_restore` on
//! PostgreSQL, and the proofs store copied alongside.

use std::path::Path;
use std::process::Command;

use reqwest::{Method, StatusCode};
use rifa_api::config::{Config, StorageConfig};
use serde_json::Value;

use crate::admin_auth::rifa_api;
use crate::helpers::{Role, TestApp};
use crate::proofs::{Bought, PNG, buy, send_proof, shop};

const KEEPER: &str = "keeper";
const PASSWORD: &str = "a-long-test-password";

/// What the source server holds before the backup: a purchase with its proof, decided, and
/// the trail of it all.
struct Before {
    purchase: Bought,
    admin_view: Value,
    head: Value,
}

async fn fill(app: &TestApp) -> Before {
    app.staff_member(KEEPER, Role::Owner).await;
    let purchase = buy(app, shop(app).await, &[3, 4], "kept@example.com").await;
    send_proof(app, &purchase, PNG, "comprobante.png", "image/png").await;
    let decided = app
        .admin_send(
            Method::PUT,
            &format!("/api/admin/purchases/{}/status", purchase.id),
            &serde_json::json!({"status": "approved"}),
        )
        .await;
    assert_eq!(decided.status(), StatusCode::OK);
    Before {
        admin_view: app
            .admin_get(&format!("/api/admin/purchases/{}", purchase.id))
            .await,
        head: app.admin_get("/api/admin/audit/verification").await,
        purchase,
    }
}

/// A server started on the restored copy, signed in as the owner kept in it.
async fn restored(config: Config) -> (TestApp, String) {
    let application = rifa_api::Application::build(config.clone()).await.unwrap();
    assert!(
        application.first_admin().is_none(),
        "the restored accounts, not a new first admin"
    );
    let app = TestApp::around(application, config, false).await;
    let token = app.login_ok(KEEPER, PASSWORD).await;
    (app, token)
}

/// The restored server has everything: the purchase as the admin saw it, its proof's bytes,
/// the buyer's key, and an intact trail holding the entry the backup ended with (the sign-in
/// on the restored server chains on after it).
async fn holds_everything(app: &TestApp, token: &str, before: &Before) {
    let get = |path: String| app.request(Method::GET, &path).bearer_auth(token).send();
    let view: Value = get(format!("/api/admin/purchases/{}", before.purchase.id))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    for field in [
        "reference",
        "status",
        "ticketNumbers",
        "totalAmount",
        "customerEmail",
    ] {
        assert_eq!(view[field], before.admin_view[field], "{field}");
    }
    let proof = view["paymentProof"].as_str().unwrap();
    let proof = if proof.starts_with('/') {
        app.url(proof)
    } else {
        proof.to_owned()
    };
    let served = app.client.get(proof).send().await.unwrap();
    assert_eq!(served.status(), StatusCode::OK);
    assert_eq!(served.bytes().await.unwrap(), PNG);
    let buyer = app
        .request(
            Method::GET,
            &format!("/api/purchases/{}/buyer", before.purchase.id),
        )
        .header("X-Purchase-Token", &before.purchase.token)
        .send()
        .await
        .unwrap();
    assert_eq!(
        buyer.status(),
        StatusCode::OK,
        "the buyer's key still opens it"
    );
    let verification: Value = get("/api/admin/audit/verification".to_owned())
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(verification["intact"], true, "{verification}");
    let last_backed_up = before.head["headSeq"].as_u64().unwrap();
    let page: Value = get(format!(
        "/api/admin/audit?before={}&limit=1",
        last_backed_up + 1
    ))
    .await
    .unwrap()
    .json()
    .await
    .unwrap();
    assert_eq!(page["items"][0]["hash"], before.head["headHash"], "{page}");
}

fn copy_tree(from: &Path, to: &Path) {
    let status = Command::new("cp")
        .arg("-a")
        .arg(format!("{}/.", from.display()))
        .arg(to)
        .status()
        .unwrap();
    assert!(status.success());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sqlite_backup_restores_into_a_server_that_has_everything() {
    let app = TestApp::sqlite().await;
    let before = fill(&app).await;
    let backup = rifa_test_support::scratch_dir().join("backup");

    let output = rifa_api(&app, &["backup", backup.to_str().unwrap()], "").await;
    let said = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{said}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(said.contains("1 proof file(s)"), "{said}");
    // Only the API's user reads a backup: every directory and file in it, not just the top
    // (issue 31: the database was written 0644 and the uploads' folders 0755).
    let mut modes = Vec::new();
    let mut pending = vec![backup.clone()];
    while let Some(path) = pending.pop() {
        let meta = std::fs::metadata(&path).unwrap();
        let mode = std::os::unix::fs::PermissionsExt::mode(&meta.permissions()) & 0o777;
        if meta.is_dir() {
            pending.extend(std::fs::read_dir(&path).unwrap().map(|e| e.unwrap().path()));
        }
        modes.push((path.display().to_string(), mode, meta.is_dir()));
    }
    assert!(modes.iter().any(|(path, _, _)| path.ends_with("rifa.db")));
    assert!(
        modes.iter().filter(|(_, _, dir)| *dir).count() >= 2,
        "{modes:?}"
    );
    for (path, mode, dir) in &modes {
        assert_eq!(*mode, if *dir { 0o700 } else { 0o600 }, "{path}");
    }
    // A second backup never overwrites the first.
    let again = rifa_api(&app, &["backup", backup.to_str().unwrap()], "").await;
    assert!(!again.status.success());

    // The documented restore: a new data directory holding the backup's files.
    let data = rifa_test_support::scratch_dir();
    copy_tree(&backup, &data);
    let config = Config::for_tests(
        format!("sqlite://{}", data.join("rifa.db").display()),
        data.clone(),
    );
    assert!(matches!(&config.storage, StorageConfig::Local(dir) if dir == &data.join("uploads")));
    let (restored, token) = restored(config).await;
    holds_everything(&restored, &token, &before).await;
}

fn pg_tool(name: &str) -> Command {
    assert!(
        Command::new(name).arg("--version").output().is_ok(),
        "{name} is needed to test PostgreSQL's backups: apt-get install -y postgresql-client"
    );
    Command::new(name)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pg_dump_restores_into_a_server_that_has_everything() {
    let Some(app) = TestApp::postgres().await else {
        return;
    };
    let before = fill(&app).await;
    // The command is SQLite's: on PostgreSQL it says what to use and copies nothing.
    let refused = rifa_api(&app, &["backup", "/tmp/never-made"], "").await;
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("pg_dump"));
    assert!(!Path::new("/tmp/never-made").exists());

    let dump = rifa_test_support::scratch_dir().join("rifa.dump");
    let dumped = pg_tool("pg_dump")
        .args([
            "--format=custom",
            "--dbname",
            &app.config.database_url,
            "--file",
        ])
        .arg(&dump)
        .output()
        .unwrap();
    assert!(
        dumped.status.success(),
        "{}",
        String::from_utf8_lossy(&dumped.stderr)
    );

    let target = rifa_test_support::empty_postgres_database().await;
    let restored_db = pg_tool("pg_restore")
        .args(["--no-owner", "--exit-on-error", "--dbname", &target])
        .arg(&dump)
        .output()
        .unwrap();
    assert!(
        restored_db.status.success(),
        "{}",
        String::from_utf8_lossy(&restored_db.stderr)
    );
    // The proofs store, copied as the procedure says (a local store here; S3 has its own).
    let data = rifa_test_support::scratch_dir();
    let StorageConfig::Local(uploads) = &app.config.storage else {
        panic!("the tests' store is local");
    };
    std::fs::create_dir_all(data.join("uploads")).unwrap();
    copy_tree(uploads, &data.join("uploads"));
    let mut config = Config::for_tests(target, data);
    config.db_max_connections = 10;
    let (restored, token) = restored(config).await;
    holds_everything(&restored, &token, &before).await;
}

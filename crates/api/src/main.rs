//! `rifa-api`: serves the API, or manages admin accounts.

use std::io::Read;

use anyhow::Context;
use clap::{Parser, Subcommand};
use rifa_api::{Application, Config, telemetry};
use rifa_app::audit::AuditService as _;
use rifa_app::staff::StaffError;
use rifa_domain::admin::Role;
use rifa_domain::audit::Actor;
use secrecy::ExposeSecret;

#[derive(Parser)]
#[command(name = "rifa-api", version, about = "Rifa's HTTP API")]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Serve the API (the default).
    Serve,
    /// Create an administrator. The password is read from standard input, or generated and
    /// printed when standard input is a terminal or empty.
    CreateAdmin {
        #[arg(long)]
        username: String,
        /// owner, manager, reviewer or catalogue.
        #[arg(long, default_value = "manager", value_parser = parse_role)]
        role: Role,
        /// The same as `--role owner` (the flag's name before roles).
        #[arg(long, conflicts_with = "role")]
        privileged: bool,
    },
    /// Back up the embedded SQLite database (`VACUUM INTO`, safe while the API serves), the
    /// local payment proofs and the generated secrets into a new directory. On PostgreSQL use
    /// pg_dump (infra/README.md, "Backups").
    Backup {
        /// A directory that does not exist yet.
        to: std::path::PathBuf,
    },
    /// Check the audit trail on the configured database: every entry's hash, its link to the
    /// one before, and that the trail ends where its head says. Exits 0 when it holds, 1 when
    /// it does not (naming the first entry that breaks).
    VerifyAudit,
    /// Check a published draw file (GET /api/raffles/{id}/draw/ledger) offline: the ledger's
    /// root, every prize's winner by the published rule and, with --reference, that purchase's
    /// numbers. Exits 0 when everything holds, 1 when something does not, 2 when the file
    /// cannot be read.
    VerifyDraw {
        file: std::path::PathBuf,
        /// A purchase reference (RF-…) whose numbers to look for.
        #[arg(long)]
        reference: Option<String>,
        /// es or en.
        #[arg(long, default_value = "es")]
        lang: String,
    },
}

#[actix_web::main]
async fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    if let Some(Command::VerifyDraw {
        file,
        reference,
        lang,
    }) = &cli.command
    {
        verify_draw(file, reference.as_deref(), lang);
    }
    let _log_writer = telemetry::init();
    let config = Config::from_env()?;
    match cli.command.unwrap_or(Command::Serve) {
        Command::Serve => serve(config).await,
        Command::CreateAdmin {
            username,
            role,
            privileged,
        } => {
            let role = if privileged { Role::Owner } else { role };
            create_admin(&config, &username, role).await
        }
        Command::VerifyAudit => verify_audit(&config).await,
        Command::Backup { to } => {
            let backup = rifa_api::backup::backup(&config, &to).await?;
            println!(
                "Backed up into {}: the database ({} bytes), {} proof file(s), secrets: {}.",
                to.display(),
                backup.database_bytes,
                backup.proofs,
                if backup.secrets.is_empty() {
                    "none in the data directory (given by the environment)".to_owned()
                } else {
                    backup.secrets.join(", ")
                }
            );
            Ok(())
        }
        Command::VerifyDraw { .. } => unreachable!("checked before the configuration is read"),
    }
}

async fn verify_audit(config: &Config) -> anyhow::Result<()> {
    let found = rifa_api::audit_trail(config).await?.verify().await?;
    let head = rifa_domain::draw::ledger::to_hex(&found.head.hash);
    match found.broken {
        None => {
            println!(
                "The audit trail holds: {} entries, head {head}",
                found.verified
            );
            Ok(())
        }
        Some(broken) => {
            println!(
                "The audit trail is broken: {broken:?} ({} entries hold before it; the head says {}, {head})",
                found.verified, found.head.seq
            );
            std::process::exit(1);
        }
    }
}

/// Runs the offline check and exits with its verdict; needs no configuration or database.
fn verify_draw(file: &std::path::Path, reference: Option<&str>, lang: &str) -> ! {
    let lang = rifa_domain::Lang::from_code(lang);
    let outcome = std::fs::read_to_string(file)
        .map_err(|e| format!("{}: {e}", file.display()))
        .and_then(|json| {
            rifa_api::verify_draw::verify(&json, reference, lang).map_err(|e| e.to_string())
        });
    match outcome {
        Ok(report) => {
            for line in &report.lines {
                println!("{line}");
            }
            std::process::exit(if report.holds { 0 } else { 1 });
        }
        Err(error) => {
            eprintln!("{error}");
            std::process::exit(2);
        }
    }
}

async fn serve(config: Config) -> anyhow::Result<()> {
    tracing::info!(config = ?config, "starting");
    let application = Application::build(config.clone()).await?;
    announce_first_admin(&application);
    println!(
        "  Rifa API listening on http://{}:{} (docs at /api/docs)",
        config.bind.ip(),
        application.port()
    );
    application
        .run_until_stopped()
        .await
        .context("server failed")
}

/// Shows the first admin's login on the terminal (never in the log stream, which may be shipped
/// elsewhere), and, while its file waits for the first sign-in, where that file is.
fn announce_first_admin(application: &Application) {
    let file = application.first_admin_password();
    if let Some((username, password)) = application.first_admin()
        && std::io::IsTerminal::is_terminal(&std::io::stderr())
    {
        eprintln!(
            "\n  First admin created. Sign in with:\n    username: {username}\n    password: {}",
            password.expose_secret()
        );
    }
    if file.exists() {
        eprintln!(
            "\n  The first admin's login is in {} until that admin signs in (then it is deleted).\n  Create more admins with `rifa-api create-admin`.\n",
            file.path().display()
        );
        tracing::warn!(
            path = %file.path().display(),
            "the first admin has not signed in yet; their generated password is in this file"
        );
    }
}

fn parse_role(raw: &str) -> Result<Role, String> {
    Role::parse(raw).ok_or_else(|| {
        let roles: Vec<&str> = Role::ALL.iter().map(|r| r.as_str()).collect();
        format!("one of {}", roles.join(", "))
    })
}

async fn create_admin(config: &Config, username: &str, role: Role) -> anyhow::Result<()> {
    let mut input = String::new();
    if !std::io::IsTerminal::is_terminal(&std::io::stdin()) {
        std::io::stdin()
            .read_to_string(&mut input)
            .context("failed to read the password from stdin")?;
    }
    let password = Some(input.trim_end_matches(['\r', '\n']).to_owned()).filter(|p| !p.is_empty());
    let accounts = rifa_api::staff_accounts(config).await?;
    let command_line = Actor {
        admin_id: None,
        username: "command-line".to_owned(),
        ip: None,
    };
    let (admin, generated) = accounts
        .create_account(&command_line, username, password, role)
        .await
        .map_err(|e| anyhow::anyhow!("{}", describe(&e)))?;
    println!(
        "Admin {} created ({}).",
        admin.username,
        admin.role.as_str()
    );
    if let Some(password) = generated {
        println!("Generated password (shown only once): {password}");
    }
    Ok(())
}

fn describe(error: &StaffError) -> String {
    match error {
        StaffError::Invalid(fields) => fields
            .iter()
            .map(|(field, e)| {
                let message = rifa_text::Message::from(e).render(rifa_domain::Lang::En);
                format!("{field}: {message}")
            })
            .collect::<Vec<_>>()
            .join("; "),
        StaffError::UsernameTaken => "that username is already taken".to_owned(),
        other => format!("{other:#}"),
    }
}

//! `rifa-api`: serves the API, or manages admin accounts.

use std::io::Read;

use anyhow::Context;
use clap::{Parser, Subcommand};
use rifa_api::{Application, Config, telemetry};
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
        /// May manage branding and e-mail settings and delete exchange rates.
        #[arg(long)]
        privileged: bool,
    },
}

#[actix_web::main]
async fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    let _log_writer = telemetry::init();
    let config = Config::from_env()?;
    match cli.command.unwrap_or(Command::Serve) {
        Command::Serve => serve(config).await,
        Command::CreateAdmin {
            username,
            privileged,
        } => create_admin(&config, &username, privileged).await,
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

async fn create_admin(config: &Config, username: &str, privileged: bool) -> anyhow::Result<()> {
    let mut input = String::new();
    if !std::io::IsTerminal::is_terminal(&std::io::stdin()) {
        std::io::stdin()
            .read_to_string(&mut input)
            .context("failed to read the password from stdin")?;
    }
    let password = Some(input.trim_end_matches(['\r', '\n']).to_owned()).filter(|p| !p.is_empty());
    let accounts = rifa_api::admin_accounts(config).await?;
    let (admin, generated) = accounts
        .create_admin(username, password, privileged, || {
            rifa_security::random_token(18)
        })
        .await
        .map_err(|e| anyhow::anyhow!("{}", describe(&e)))?;
    println!(
        "Admin {} created{}.",
        admin.username,
        if admin.privileged {
            " (privileged)"
        } else {
            ""
        }
    );
    if let Some(password) = generated {
        println!("Generated password (shown only once): {password}");
    }
    Ok(())
}

fn describe(error: &rifa_app::auth::CreateAdminFailure) -> String {
    use rifa_app::auth::CreateAdminFailure as F;
    match error {
        F::Invalid(fields) => fields
            .iter()
            .map(|(field, e)| {
                let message = rifa_text::Message::from(e).render(rifa_domain::Lang::En);
                format!("{field}: {message}")
            })
            .collect::<Vec<_>>()
            .join("; "),
        F::UsernameTaken => "that username is already taken".to_owned(),
        F::Unknown(e) => format!("{e:#}"),
    }
}

//! [`TextReader`] with Debian's programs: Tesseract (`tesseract-ocr`, `tesseract-ocr-spa`) reads
//! pictures; poppler (`poppler-utils`) gives a PDF's own text, or renders its first page for
//! Tesseract when it is a scan. Each is optional: what is missing is found at startup and the
//! panel says the proof was not read.

use std::io::Cursor;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use anyhow::Context;
use image::imageops::FilterType;
use image::{DynamicImage, ImageFormat};
use rifa_domain::proof::{MAX_PROOF_PIXELS, ProofKind};
use rifa_ports::TextReader;
use tokio::io::AsyncWriteExt;
use tokio::process::Command;

use crate::decode::{Picture, decode_picture, image_format, off_the_workers};

/// How long one program may take on one proof.
const RUN_LIMIT: Duration = Duration::from_secs(60);
/// Text kept from a proof: a receipt is a few hundred characters.
const MAX_TEXT_CHARS: usize = 8_000;
/// Pictures narrower than this are enlarged before OCR: Tesseract reads text best at about
/// 30 pixels a line, and phone screenshots are often sent scaled down.
const OCR_MIN_WIDTH: u32 = 1_000;

/// The programs found on this server.
#[derive(Debug, Clone, Default)]
pub struct ProgramReader {
    /// Tesseract, when it has the Spanish model.
    tesseract: Option<PathBuf>,
    /// `pdftotext` and `pdftoppm`.
    poppler: Option<(PathBuf, PathBuf)>,
    /// `nice`, when found: the readers then run at the lowest CPU priority, so buyers'
    /// requests come first on a busy machine.
    nice: Option<PathBuf>,
}

impl ProgramReader {
    /// Looks for the programs on `PATH` (`tesseract` may be named by `RIFA_TESSERACT`), once
    /// at startup; `RIFA_OCR=off` reads nothing.
    #[must_use]
    pub fn detect() -> Self {
        if std::env::var("RIFA_OCR").is_ok_and(|value| value == "off") {
            tracing::info!("proofs are not read: RIFA_OCR=off");
            return Self::default();
        }
        let tesseract = PathBuf::from(
            std::env::var("RIFA_TESSERACT").unwrap_or_else(|_| "tesseract".to_owned()),
        );
        let tesseract = match probe(&tesseract, "--list-langs") {
            Some(langs) if langs.lines().any(|lang| lang.trim() == "spa") => Some(tesseract),
            Some(_) => {
                tracing::warn!(
                    "Tesseract has no Spanish model (Debian: tesseract-ocr-spa): pictures are not read"
                );
                None
            }
            None => {
                tracing::warn!(
                    "no Tesseract (Debian: tesseract-ocr, tesseract-ocr-spa): pictures are not read"
                );
                None
            }
        };
        let poppler = if probe(Path::new("pdftotext"), "-v").is_some() {
            Some(("pdftotext".into(), "pdftoppm".into()))
        } else {
            tracing::warn!("no pdftotext (Debian: poppler-utils): PDFs are not read");
            None
        };
        let nice = probe(Path::new("nice"), "--version").map(|_| PathBuf::from("nice"));
        Self {
            tesseract,
            poppler,
            nice,
        }
    }

    /// `program` with `args`, behind `nice -n 19` when there is one.
    fn command(&self, program: &Path, args: &[&str]) -> Command {
        match &self.nice {
            Some(nice) => {
                let mut command = Command::new(nice);
                command.args(["-n", "19"]).arg(program).args(args);
                command
            }
            None => {
                let mut command = Command::new(program);
                command.args(args);
                command
            }
        }
    }

    /// Whether pictures are read (the panel says so when they are not).
    #[must_use]
    pub fn reads_pictures(&self) -> bool {
        self.tesseract.is_some()
    }

    async fn ocr(&self, tesseract: &Path, png: Vec<u8>) -> anyhow::Result<String> {
        run(
            self.command(
                tesseract,
                &["stdin", "stdout", "-l", "spa+eng", "--psm", "3"],
            ),
            Some(png),
        )
        .await
    }
}

impl TextReader for ProgramReader {
    #[tracing::instrument(name = "proofs.program_reader.read_text", skip_all, fields(proof.kind = kind.label()))]
    async fn read_text(&self, kind: ProofKind, bytes: Vec<u8>) -> anyhow::Result<Option<String>> {
        let text = match image_format(kind) {
            Some(format) => {
                let Some(tesseract) = &self.tesseract else {
                    return Ok(None);
                };
                let prepared =
                    off_the_workers("prepare for OCR", move || prepare_for_ocr(format, &bytes))
                        .await?
                        .flatten();
                match prepared {
                    Some(png) => self.ocr(tesseract, png).await?,
                    None => String::new(),
                }
            }
            None => {
                let Some((pdftotext, pdftoppm)) = &self.poppler else {
                    return Ok(None);
                };
                let text = run(
                    self.command(pdftotext, &["-l", "2", "-", "-"]),
                    Some(bytes.clone()),
                )
                .await?;
                if text.trim().is_empty()
                    && let Some(tesseract) = &self.tesseract
                {
                    // A scan: its first page, at a resolution Tesseract reads well.
                    let page = run_bytes(
                        self.command(
                            pdftoppm,
                            &["-r", "200", "-f", "1", "-l", "1", "-gray", "-png", "-"],
                        ),
                        Some(bytes),
                    )
                    .await?;
                    self.ocr(tesseract, page).await?
                } else {
                    text
                }
            }
        };
        Ok(Some(text.chars().take(MAX_TEXT_CHARS).collect()))
    }
}

/// What `program arg` prints (either stream: versions go to stderr), if it runs at all.
fn probe(program: &Path, arg: &str) -> Option<String> {
    let output = std::process::Command::new(program)
        .arg(arg)
        .stdin(Stdio::null())
        .output()
        .ok()?;
    output.status.success().then(|| {
        let mut text = String::from_utf8_lossy(&output.stdout).into_owned();
        text.push_str(&String::from_utf8_lossy(&output.stderr));
        text
    })
}

/// The picture in grey, enlarged when small, as PNG for Tesseract (which then needs no decoder
/// of its own for WEBP or GIF); `None` when it does not decode.
fn prepare_for_ocr(format: ImageFormat, bytes: &[u8]) -> Option<Vec<u8>> {
    let Picture::Decoded(picture) = decode_picture(format, bytes, MAX_PROOF_PIXELS) else {
        return None;
    };
    let mut grey = DynamicImage::ImageLuma8(picture.to_luma8());
    if grey.width() < OCR_MIN_WIDTH {
        let scale = f64::from(OCR_MIN_WIDTH) / f64::from(grey.width().max(1));
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        let height = (f64::from(grey.height()) * scale).round() as u32;
        grey = grey.resize_exact(OCR_MIN_WIDTH, height.max(1), FilterType::CatmullRom);
    }
    let mut png = Vec::new();
    grey.write_to(&mut Cursor::new(&mut png), ImageFormat::Png)
        .ok()?;
    Some(png)
}

async fn run(command: Command, input: Option<Vec<u8>>) -> anyhow::Result<String> {
    let output = run_bytes(command, input).await?;
    Ok(String::from_utf8_lossy(&output).into_owned())
}

/// Runs `command` with `input` on its standard input and answers its standard output; killed
/// after [`RUN_LIMIT`].
async fn run_bytes(mut command: Command, input: Option<Vec<u8>>) -> anyhow::Result<Vec<u8>> {
    let program = format!("{:?}", command.as_std());
    let mut child = command
        // One thread each: the instance reads one proof at a time already.
        .env("OMP_THREAD_LIMIT", "1")
        .stdin(if input.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .with_context(|| format!("failed to start {program}"))?;
    if let (Some(input), Some(mut stdin)) = (input, child.stdin.take()) {
        // Written while the output is read below: a program may answer before it reads all.
        tokio::spawn(async move {
            let _ = stdin.write_all(&input).await;
        });
    }
    let output = tokio::time::timeout(RUN_LIMIT, child.wait_with_output())
        .await
        .with_context(|| format!("{program} took longer than {RUN_LIMIT:?}"))?
        .with_context(|| format!("failed to run {program}"))?;
    anyhow::ensure!(
        output.status.success(),
        "{program} failed ({}): {}",
        output.status,
        String::from_utf8_lossy(&output.stderr).trim()
    );
    Ok(output.stdout)
}

//! [`TextReader`] with Debian's programs: Tesseract (`tesseract-ocr`, `tesseract-ocr-spa`) reads
//! pictures; poppler (`poppler-utils`) gives a PDF's own text, or renders its first page for
//! Tesseract when it is a scan. Each is optional: what is missing is found at startup and the
//! panel says the proof was not read.
//!
//! Every proof is read within bounds, so a hostile file costs a known amount and never holds
//! up the proofs behind it for longer (decision 0021): Tesseract never gets more than
//! [`OCR_MAX_PIXELS`] (a picture is reduced to it, a PDF page rendered within it, a page that
//! would need less than [`RENDER_MIN_DPI`] to fit is no receipt and is not rendered); each
//! program runs under `prlimit` with [`Bounds`]' memory and CPU limits, and the whole reading
//! of one proof within its time. A file that goes past a bound is [`ProofText::NotRead`], a
//! result the check records once.

use std::io::Cursor;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

use anyhow::Context;
use image::imageops::FilterType;
use image::{DynamicImage, ImageFormat};
use rifa_domain::proof::{MAX_PROOF_PIXELS, ProofKind};
use rifa_domain::proof_signals::ReadFailure;
use rifa_ports::{ProofText, TextReader};
use tokio::io::AsyncWriteExt;
use tokio::process::Command;

use crate::decode::{Picture, decode_picture, image_format, off_the_workers};

/// Debian's packages of the programs this reader looks for: what `make run` installs and the
/// release image carries (`infra/Dockerfile`, checked by the API's tests).
pub const DEBIAN_PACKAGES: [&str; 3] = ["poppler-utils", "tesseract-ocr", "tesseract-ocr-spa"];

/// Text kept from a proof: a receipt is a few hundred characters.
const MAX_TEXT_CHARS: usize = 8_000;
/// Pictures narrower than this are enlarged before OCR: Tesseract reads text best at about
/// 30 pixels a line, and phone screenshots are often sent scaled down.
const OCR_MIN_WIDTH: u32 = 1_000;
/// The most pixels Tesseract is given: a phone's screenshot is 2–3 million, a receipt's page
/// at 200 dpi about 4, a 12-megapixel photo of a paper receipt still legible at 8. Tesseract's
/// time and memory grow with them: a picture full of text at 37 million took 22 s and 230 MB
/// (BENCHMARKS.md).
pub const OCR_MAX_PIXELS: u64 = 8_000_000;
/// The longest side Tesseract is given, whatever the pixels: a strip 1 pixel wide and a million
/// long is no receipt.
const OCR_MAX_SIDE: u32 = 16_384;
/// The resolution a scanned PDF's page is rendered at: 10-point text is about 28 pixels high.
const RENDER_DPI: f64 = 200.0;
/// Below this, a page's text is too small to read: a page that fits [`OCR_MAX_PIXELS`] only at
/// a lower resolution (more than 0.5 m² — a receipt is A4 or smaller) is not rendered.
pub const RENDER_MIN_DPI: f64 = 100.0;
/// A page whose box is missing or unreadable is rendered as US Letter, poppler's own default.
const LETTER_POINTS: (f64, f64) = (612.0, 792.0);

/// What one proof's reading may cost.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bounds {
    /// Address space of each program (`RLIMIT_AS`): Tesseract needs 128 MB for a receipt and
    /// 256 MB at [`OCR_MAX_PIXELS`].
    pub memory_bytes: u64,
    /// CPU seconds of each program (`RLIMIT_CPU`): a receipt takes under one. What the file
    /// costs, whatever else the machine is doing.
    pub cpu_seconds: u32,
    /// Time for the whole reading of one proof (every program it runs), on the clock: what the
    /// proofs behind it wait at most, on a machine busy with other work too.
    pub time: Duration,
}

impl Default for Bounds {
    fn default() -> Self {
        Self {
            memory_bytes: 1 << 30,
            cpu_seconds: 15,
            time: Duration::from_secs(45),
        }
    }
}

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
    /// `prlimit` (util-linux), when found: the readers then run within [`Bounds`]' memory and
    /// CPU.
    prlimit: Option<PathBuf>,
    bounds: Bounds,
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
        let prlimit = probe(Path::new("prlimit"), "--version").map(|_| PathBuf::from("prlimit"));
        if prlimit.is_none() && (tesseract.is_some() || poppler.is_some()) {
            tracing::warn!(
                "no prlimit (Debian: util-linux): proofs are read without a memory or CPU limit"
            );
        }
        Self {
            tesseract,
            poppler,
            nice,
            prlimit,
            bounds: Bounds::default(),
        }
    }

    /// The same programs within other bounds (tests make them small).
    #[must_use]
    pub fn with_bounds(self, bounds: Bounds) -> Self {
        Self { bounds, ..self }
    }

    /// Whether pictures are read (the panel says so when they are not).
    #[must_use]
    pub fn reads_pictures(&self) -> bool {
        self.tesseract.is_some()
    }

    /// Whether each program runs within [`Bounds`]' memory and CPU (`prlimit` was found).
    #[must_use]
    pub fn bounds_programs(&self) -> bool {
        self.prlimit.is_some()
    }

    /// `program` with `args`, behind `prlimit` and `nice -n 19` when there are. Each of them
    /// executes the next in the same process, so killing it kills the reader.
    fn command(&self, program: &Path, args: &[&str]) -> Command {
        let mut chain: Vec<String> = Vec::new();
        if let Some(prlimit) = &self.prlimit {
            chain.push(prlimit.display().to_string());
            chain.push(format!("--as={}", self.bounds.memory_bytes));
            // SIGXCPU at the soft limit, SIGKILL a second later; no core file of a stranger's
            // document on the disk.
            chain.push(format!(
                "--cpu={}:{}",
                self.bounds.cpu_seconds,
                self.bounds.cpu_seconds + 1
            ));
            chain.push("--core=0".to_owned());
            chain.push("--".to_owned());
        }
        if let Some(nice) = &self.nice {
            chain.push(nice.display().to_string());
            chain.push("-n".to_owned());
            chain.push("19".to_owned());
        }
        chain.push(program.display().to_string());
        let mut command = Command::new(&chain[0]);
        command.args(&chain[1..]).args(args);
        command
    }

    /// Runs one program on `input` within the bounds and what is left of `deadline`.
    async fn run(
        &self,
        program: &Path,
        args: &[&str],
        input: Vec<u8>,
        deadline: Instant,
    ) -> anyhow::Result<Result<Vec<u8>, ReadFailure>> {
        run_bounded(
            self.command(program, args),
            input,
            deadline,
            self.bounds.cpu_seconds,
            self.bounds.time,
        )
        .await
    }

    async fn ocr(
        &self,
        tesseract: &Path,
        png: Vec<u8>,
        deadline: Instant,
    ) -> anyhow::Result<Result<String, ReadFailure>> {
        Ok(self
            .run(
                tesseract,
                &["stdin", "stdout", "-l", "spa+eng", "--psm", "3"],
                png,
                deadline,
            )
            .await?
            .map(|text| String::from_utf8_lossy(&text).into_owned()))
    }

    async fn read_picture(
        &self,
        tesseract: &Path,
        format: ImageFormat,
        bytes: Vec<u8>,
        deadline: Instant,
    ) -> anyhow::Result<Result<String, ReadFailure>> {
        let prepared = off_the_workers("prepare for OCR", move || prepare_for_ocr(format, &bytes))
            .await?
            .flatten();
        match prepared {
            Some(png) => self.ocr(tesseract, png, deadline).await,
            // Pixels that do not decode show no text.
            None => Ok(Ok(String::new())),
        }
    }

    async fn read_pdf(
        &self,
        (pdftotext, pdftoppm): (&Path, &Path),
        bytes: Vec<u8>,
        deadline: Instant,
    ) -> anyhow::Result<Result<String, ReadFailure>> {
        let text = match self
            .run(pdftotext, &["-l", "2", "-", "-"], bytes.clone(), deadline)
            .await?
        {
            Ok(text) => String::from_utf8_lossy(&text).into_owned(),
            Err(failure) => return Ok(Err(failure)),
        };
        let Some(tesseract) = self.tesseract.as_deref().filter(|_| text.trim().is_empty()) else {
            return Ok(Ok(text));
        };
        // A scan: its first page, at a size Tesseract reads well and within its pixels. The
        // size is given in pixels, so poppler cannot be made to render more whatever the file
        // says of itself.
        let (width, height) = match render_size(first_page_points(&bytes)) {
            Ok(size) => size,
            Err(failure) => return Ok(Err(failure)),
        };
        let (width, height) = (width.to_string(), height.to_string());
        let args = [
            "-f",
            "1",
            "-l",
            "1",
            "-scale-to-x",
            &width,
            "-scale-to-y",
            &height,
            "-gray",
            "-png",
            "-",
        ];
        match self.run(pdftoppm, &args, bytes, deadline).await? {
            Ok(page) => self.ocr(tesseract, page, deadline).await,
            Err(failure) => Ok(Err(failure)),
        }
    }
}

impl TextReader for ProgramReader {
    #[tracing::instrument(name = "proofs.program_reader.read_text", skip_all, fields(proof.kind = kind.label()))]
    async fn read_text(&self, kind: ProofKind, bytes: Vec<u8>) -> anyhow::Result<ProofText> {
        let deadline = Instant::now() + self.bounds.time;
        let read = match image_format(kind) {
            Some(format) => {
                let Some(tesseract) = &self.tesseract else {
                    return Ok(ProofText::NoReader);
                };
                self.read_picture(tesseract, format, bytes, deadline)
                    .await?
            }
            None => {
                let Some((pdftotext, pdftoppm)) = &self.poppler else {
                    return Ok(ProofText::NoReader);
                };
                self.read_pdf((pdftotext, pdftoppm), bytes, deadline)
                    .await?
            }
        };
        Ok(match read {
            Ok(text) => ProofText::Read(text.chars().take(MAX_TEXT_CHARS).collect()),
            Err(failure) => ProofText::NotRead(failure),
        })
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

/// The size Tesseract gets a `width`×`height` picture at: enlarged to [`OCR_MIN_WIDTH`] when
/// narrower, reduced when that or the picture itself is past [`OCR_MAX_PIXELS`] or
/// [`OCR_MAX_SIDE`]; the proportions kept.
fn ocr_size(width: u32, height: u32) -> (u32, u32) {
    let (w, h) = (f64::from(width.max(1)), f64::from(height.max(1)));
    #[allow(clippy::cast_precision_loss)]
    let budget = OCR_MAX_PIXELS as f64;
    let scale = (f64::from(OCR_MIN_WIDTH) / w)
        .max(1.0)
        .min((budget / (w * h)).sqrt())
        .min(f64::from(OCR_MAX_SIDE) / w.max(h));
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    // Down, so the budget holds; the epsilon keeps 999.999… from losing a pixel.
    let side = |length: f64| ((length * scale + 1e-6).floor() as u32).max(1);
    (side(w), side(h))
}

/// The picture in grey, at [`ocr_size`], as PNG for Tesseract (which then needs no decoder of
/// its own for WEBP or GIF); `None` when it does not decode.
fn prepare_for_ocr(format: ImageFormat, bytes: &[u8]) -> Option<Vec<u8>> {
    let Picture::Decoded(picture) = decode_picture(format, bytes, MAX_PROOF_PIXELS) else {
        return None;
    };
    let mut grey = DynamicImage::ImageLuma8(picture.to_luma8());
    drop(picture);
    let (width, height) = ocr_size(grey.width(), grey.height());
    if (width, height) != (grey.width(), grey.height()) {
        let filter = if width > grey.width() {
            FilterType::CatmullRom
        } else {
            // Reducing: an area average keeps thin strokes that sampling would drop.
            FilterType::Triangle
        };
        grey = grey.resize_exact(width, height, filter);
    }
    let mut png = Vec::new();
    grey.write_to(&mut Cursor::new(&mut png), ImageFormat::Png)
        .ok()?;
    Some(png)
}

/// The first page's size in points as it is shown: its `MediaBox` (from the page or inherited
/// from its tree, as poppler renders it), times its `UserUnit`, turned by its `Rotate`. `None`
/// when the document or the box does not parse.
fn first_page_points(bytes: &[u8]) -> Option<(f64, f64)> {
    let document = lopdf::Document::load_mem(bytes).ok()?;
    let page = *document.get_pages().get(&1)?;
    let corners: Vec<f64> = inherited(&document, page, b"MediaBox")?
        .as_array()
        .ok()?
        .iter()
        .map(|corner| number(&document, corner))
        .collect::<Option<_>>()?;
    let [x0, y0, x1, y1] = corners[..] else {
        return None;
    };
    let unit = document
        .get_dictionary(page)
        .ok()
        .and_then(|dictionary| dictionary.get(b"UserUnit").ok())
        .and_then(|unit| number(&document, unit))
        .unwrap_or(1.0);
    let (width, height) = ((x1 - x0).abs() * unit, (y1 - y0).abs() * unit);
    #[allow(clippy::cast_possible_truncation)]
    let turned = inherited(&document, page, b"Rotate")
        .and_then(|rotate| number(&document, rotate))
        .is_some_and(|degrees| ((degrees / 90.0).round() as i64).rem_euclid(2) == 1);
    (width.is_finite() && height.is_finite() && width > 0.0 && height > 0.0).then_some(if turned {
        (height, width)
    } else {
        (width, height)
    })
}

/// An attribute of `page`, or of the nearest node of its page tree that has it.
fn inherited<'a>(
    document: &'a lopdf::Document,
    page: lopdf::ObjectId,
    key: &[u8],
) -> Option<&'a lopdf::Object> {
    let mut node = document.get_dictionary(page).ok()?;
    // A tree deeper than this is no receipt's (and may be a loop).
    for _ in 0..32 {
        if let Ok(value) = node.get(key) {
            return document.dereference(value).ok().map(|(_, value)| value);
        }
        let parent = node.get(b"Parent").ok()?.as_reference().ok()?;
        node = document.get_dictionary(parent).ok()?;
    }
    None
}

/// A PDF number, integer or real, behind any reference.
fn number(document: &lopdf::Document, object: &lopdf::Object) -> Option<f64> {
    let (_, object) = document.dereference(object).ok()?;
    #[allow(clippy::cast_precision_loss)]
    object
        .as_f64()
        .ok()
        .or_else(|| object.as_i64().ok().map(|n| n as f64))
}

/// The pixels a page of `points` is rendered at for OCR: [`RENDER_DPI`], less when the page
/// would pass [`OCR_MAX_PIXELS`] or [`OCR_MAX_SIDE`]; a page that only fits under
/// [`RENDER_MIN_DPI`] is refused, with its size.
fn render_size(points: Option<(f64, f64)>) -> Result<(u32, u32), ReadFailure> {
    let (width, height) = points.unwrap_or(LETTER_POINTS);
    let (width_in, height_in) = (width / 72.0, height / 72.0);
    #[allow(clippy::cast_precision_loss)]
    let budget = OCR_MAX_PIXELS as f64;
    let dpi = RENDER_DPI
        .min((budget / (width_in * height_in)).sqrt())
        .min(f64::from(OCR_MAX_SIDE) / width_in.max(height_in));
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let whole = |value: f64| value.round().clamp(1.0, f64::from(u32::MAX)) as u32;
    if dpi < RENDER_MIN_DPI {
        return Err(ReadFailure::PageTooLarge {
            width_mm: whole(width_in * 25.4),
            height_mm: whole(height_in * 25.4),
        });
    }
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let pixels = |inches: f64| ((inches * dpi + 1e-6).floor() as u32).max(1);
    Ok((pixels(width_in), pixels(height_in)))
}

/// Signals a program gets when it passes its CPU limit: SIGXCPU at the soft one, SIGKILL at
/// the hard one.
const SIGXCPU: i32 = 24;
const SIGKILL: i32 = 9;

/// Runs `command` with `input` on its standard input and answers its standard output, or why
/// the file made it fail: killed at `deadline`, past `cpu_seconds`, or stopped with an error.
/// An error is only a program that could not be started.
async fn run_bounded(
    mut command: Command,
    input: Vec<u8>,
    deadline: Instant,
    cpu_seconds: u32,
    time: Duration,
) -> anyhow::Result<Result<Vec<u8>, ReadFailure>> {
    let program = format!("{:?}", command.as_std());
    let mut child = command
        // One thread each: the instance reads one proof at a time already.
        .env("OMP_THREAD_LIMIT", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .with_context(|| format!("failed to start {program}"))?;
    if let Some(mut stdin) = child.stdin.take() {
        // Written while the output is read below: a program may answer before it reads all.
        tokio::spawn(async move {
            let _ = stdin.write_all(&input).await;
        });
    }
    let left = deadline.saturating_duration_since(Instant::now());
    // Dropping the child on time-out kills it (`kill_on_drop`).
    let Ok(output) = tokio::time::timeout(left, child.wait_with_output()).await else {
        tracing::warn!(program, "a proof's reader ran out of time");
        return Ok(Err(ReadFailure::TooSlow {
            seconds: u32::try_from(time.as_secs()).unwrap_or(u32::MAX),
        }));
    };
    let output = output.with_context(|| format!("failed to run {program}"))?;
    if output.status.success() {
        return Ok(Ok(output.stdout));
    }
    let stderr = String::from_utf8_lossy(&output.stderr);
    tracing::warn!(program, status = %output.status, stderr = %stderr.trim(), "a proof's reader failed");
    Ok(Err(match output.status.signal() {
        Some(SIGXCPU | SIGKILL) => ReadFailure::TooSlow {
            seconds: cpu_seconds,
        },
        _ => ReadFailure::ReaderFailed,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pictures_are_enlarged_when_narrow_and_reduced_to_the_pixel_budget() {
        assert_eq!(ocr_size(540, 1_140), (1_000, 2_111), "a phone's screenshot");
        assert_eq!(ocr_size(1_080, 2_400), (1_080, 2_400), "as it is");
        let (width, height) = ocr_size(5_400, 6_840);
        assert!(
            u64::from(width) * u64::from(height) <= OCR_MAX_PIXELS,
            "{width}×{height}"
        );
        assert_eq!(
            width * 100 / height,
            5_400 * 100 / 6_840,
            "proportions kept"
        );
        // Enlarging a thin strip to the minimum width would pass the budget: it is not.
        let (width, height) = ocr_size(10, 4_000_000);
        assert!(u64::from(width) * u64::from(height) <= OCR_MAX_PIXELS);
        assert!(height <= OCR_MAX_SIDE && width >= 1, "{width}×{height}");
    }

    #[test]
    fn pages_render_at_200_dpi_within_the_budget_and_huge_ones_are_refused() {
        // A4 at 200 dpi.
        assert_eq!(render_size(Some((595.0, 842.0))), Ok((1_652, 2_338)));
        // Unknown: US Letter.
        assert_eq!(render_size(None), Ok((1_700, 2_200)));
        // A2 (420 × 594 mm) fits only at a lower resolution.
        let (width, height) = render_size(Some((1_191.0, 1_684.0))).unwrap();
        assert!(u64::from(width) * u64::from(height) <= OCR_MAX_PIXELS);
        assert!(width > 1_191 * 100 / 72, "at least 100 dpi: {width}");
        // 14,400 points a side: 5 m.
        assert_eq!(
            render_size(Some((14_400.0, 14_400.0))),
            Err(ReadFailure::PageTooLarge {
                width_mm: 5_080,
                height_mm: 5_080
            })
        );
        // A till roll, 8 cm by 2 m, at the resolution its length allows.
        let (width, height) = render_size(Some((227.0, 5_669.0))).unwrap();
        assert!(
            height <= OCR_MAX_SIDE && width >= 227 * 100 / 72,
            "{width}×{height}"
        );
    }
}

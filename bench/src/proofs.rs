//! `proofs`: the proof checks' signals on the proof corpus (issue 16), in process, with the
//! readers the API uses. For every pair of pictures: is it taken for the same payment saved
//! again (hashes within `NEAR_REUSE_DISTANCE`), and for a reuse at all (the same file, a close
//! picture, or the same reference read on both, as the check decides) — precision and recall
//! against the manifest's truth. For every file: the fields read from its text, and the time
//! each stage took (hash and metadata, OCR or a PDF's text).

use std::path::PathBuf;
use std::time::Instant;

use anyhow::Context;
use rifa_domain::payment_reference::reference_key;
use rifa_domain::proof::ProofKind;
use rifa_domain::proof_reading::read_proof;
use rifa_domain::proof_signals::{NEAR_REUSE_DISTANCE, PictureHash, editing_software, fingerprint};
use rifa_ports::{ProofExaminer, ProofText, TextReader};
use rifa_proofs::{FileExaminer, ProgramReader};
use serde_json::{Value, json};

use crate::cli::{Cli, ProofsArgs};
use crate::report::{Latency, micros, round2, row};

/// What the bench found on one file.
struct Read {
    payment: String,
    variant: String,
    fingerprint: [u8; 32],
    hash: Option<PictureHash>,
    reference: Option<String>,
    editor: bool,
}

/// Share of `right` in `total`, as a percentage.
#[allow(clippy::cast_precision_loss)]
fn percent(right: usize, total: usize) -> f64 {
    if total == 0 {
        100.0
    } else {
        round2(right as f64 * 100.0 / total as f64)
    }
}

/// Precision and recall of a pairwise rule against the truth.
#[derive(Default)]
struct Confusion {
    true_positive: usize,
    false_positive: usize,
    false_negative: usize,
}

impl Confusion {
    fn add(&mut self, said: bool, truth: bool) {
        match (said, truth) {
            (true, true) => self.true_positive += 1,
            (true, false) => self.false_positive += 1,
            (false, true) => self.false_negative += 1,
            (false, false) => {}
        }
    }

    fn json(&self) -> Value {
        json!({
            "precision_pct": percent(self.true_positive, self.true_positive + self.false_positive),
            "recall_pct": percent(self.true_positive, self.true_positive + self.false_negative),
            "false_positives": self.false_positive,
            "missed": self.false_negative,
        })
    }
}

pub(crate) async fn proofs(cli: &Cli, args: &ProofsArgs) -> anyhow::Result<bool> {
    let dir = PathBuf::from(&args.corpus);
    let manifest: Value = serde_json::from_slice(
        &std::fs::read(dir.join("manifest.json")).context("the corpus has no manifest.json")?,
    )?;
    let reader = ProgramReader::detect();
    anyhow::ensure!(
        reader.reads_pictures(),
        "Tesseract with its Spanish model is needed (apt-get install tesseract-ocr tesseract-ocr-spa)"
    );
    let entries = manifest["proofs"]
        .as_array()
        .context("manifest.json lists no proofs")?;
    let (mut examine_us, mut picture_ocr_us, mut pdf_text_us) =
        (Vec::new(), Vec::new(), Vec::new());
    let (mut amounts, mut references, mut dates, mut banks) = (0, 0, 0, 0);
    let mut editors = Confusion::default();
    let mut read = Vec::new();
    for entry in entries {
        let text_of = |key: &str| entry[key].as_str().unwrap_or_default().to_owned();
        let file = text_of("file");
        let bytes = std::fs::read(dir.join(&file)).with_context(|| file.clone())?;
        let kind = ProofKind::sniff(&bytes).with_context(|| format!("{file} is no proof"))?;

        let started = Instant::now();
        let evidence = FileExaminer.examine(kind, bytes.clone()).await?;
        examine_us.push(micros(started.elapsed()));
        let started = Instant::now();
        let text = match reader.read_text(kind, bytes.clone()).await? {
            ProofText::Read(text) => text,
            ProofText::NoReader | ProofText::NotRead(_) => String::new(),
        };
        if kind == ProofKind::Pdf {
            pdf_text_us.push(micros(started.elapsed()));
        } else {
            picture_ocr_us.push(micros(started.elapsed()));
        }

        let reading = read_proof(&text);
        let truth = &entry["truth"];
        let truth_amount: rust_decimal::Decimal =
            truth["amount"].as_str().unwrap_or("0").parse()?;
        amounts += usize::from(reading.amounts.iter().any(|a| a.value == truth_amount));
        let reference = reading.reference.as_deref().map(reference_key);
        references += usize::from(reference == truth["reference"].as_str().map(reference_key));
        dates +=
            usize::from(reading.date.map(|d| d.to_string()).as_deref() == truth["date"].as_str());
        banks += usize::from(reading.bank == truth["bank"].as_str());
        let editor = editing_software(&evidence.software).is_some();
        let edited_truth = entry["metadata"]["software"]
            .as_str()
            .is_some_and(|s| editing_software(&[s.to_owned()]).is_some());
        editors.add(editor, edited_truth);
        read.push(Read {
            payment: text_of("payment"),
            variant: text_of("variant"),
            fingerprint: fingerprint(&bytes),
            hash: evidence.picture_hash,
            reference,
            editor,
        });
        if !cli.json_only {
            eprintln!("read {file}");
        }
    }

    // Every pair of files: the same picture saved again (pictures only), and any reuse the
    // check would name.
    let (mut same_picture, mut reuse) = (Confusion::default(), Confusion::default());
    let mut crops_caught = (0, 0);
    for (i, a) in read.iter().enumerate() {
        for b in &read[i + 1..] {
            let same_payment = a.payment == b.payment;
            let close = match (&a.hash, &b.hash) {
                (Some(x), Some(y)) => x.distance(y) <= NEAR_REUSE_DISTANCE,
                _ => false,
            };
            if a.hash.is_some() && b.hash.is_some() {
                // A crop moves the whole picture: the same payment, found by its reference.
                let uncropped = |r: &Read| r.variant != "cropped";
                same_picture.add(close, same_payment && uncropped(a) && uncropped(b));
            }
            let same_reference = a.reference.is_some() && a.reference == b.reference;
            let said = a.fingerprint == b.fingerprint || close || same_reference;
            reuse.add(said, same_payment);
            if same_payment && (a.variant == "cropped" || b.variant == "cropped") {
                crops_caught.1 += 1;
                crops_caught.0 += usize::from(said);
            }
        }
    }

    let total = read.len();
    let examine = Latency::of(examine_us);
    let picture_ocr = Latency::of(picture_ocr_us);
    let pdf_text = Latency::of(pdf_text_us);
    let result = json!({
        "scenario": "proofs",
        "files": total,
        "editors_named": read.iter().filter(|r| r.editor).count(),
        "fields_pct": {
            "amount": percent(amounts, total),
            "reference": percent(references, total),
            "date": percent(dates, total),
            "bank": percent(banks, total),
        },
        "same_picture_pairs": same_picture.json(),
        "reuse_pairs": reuse.json(),
        "crop_pairs_caught_pct": percent(crops_caught.0, crops_caught.1),
        "editor_metadata": editors.json(),
        "hash_and_metadata": examine.json(),
        "picture_ocr": picture_ocr.json(),
        "pdf_text": pdf_text.json(),
    });
    if !cli.json_only {
        println!("proof corpus: {total} files");
        row("amount read right", format!("{amounts}/{total}"));
        row("reference read right", format!("{references}/{total}"));
        row("date read right", format!("{dates}/{total}"));
        row("bank read right", format!("{banks}/{total}"));
        row("same picture (pairs)", same_picture.json());
        row("any reuse (pairs)", reuse.json());
        row("hash + metadata p50 ms", examine.p50_ms);
        row("picture OCR p50 ms", picture_ocr.p50_ms);
        row("PDF text p50 ms", pdf_text.p50_ms);
    }
    println!("{result}");
    Ok(same_picture.false_positive == 0 && reuse.false_positive == 0)
}

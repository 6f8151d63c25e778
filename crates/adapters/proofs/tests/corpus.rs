//! The proof corpus (`tests/corpus`, made by its `generate.py`): what the examiner and the
//! reader find on generated receipts, against the truth its manifest records. BENCHMARKS.md
//! reports the same measures over the whole pipeline (`rifa-bench proof-corpus`).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeMap;
use std::path::PathBuf;

use chrono::{DateTime, NaiveDate, Utc};
use rifa_domain::payment_reference::reference_key;
use rifa_domain::proof::ProofKind;
use rifa_domain::proof_reading::read_proof;
use rifa_domain::proof_signals::{NEAR_REUSE_DISTANCE, editing_software};
use rifa_ports::{ProofExaminer, ProofText, TextReader};
use rifa_proofs::{FileExaminer, ProgramReader};
use rust_decimal::Decimal;
use serde::Deserialize;

#[derive(Deserialize)]
struct Manifest {
    proofs: Vec<Entry>,
}

#[derive(Deserialize, Clone)]
#[serde(rename_all = "camelCase")]
struct Entry {
    file: String,
    payment: String,
    variant: String,
    truth: Truth,
    metadata: Metadata,
}

#[derive(Deserialize, Clone)]
struct Truth {
    amount: Decimal,
    reference: Option<String>,
    date: NaiveDate,
    bank: String,
}

#[derive(Deserialize, Clone)]
#[serde(rename_all = "camelCase")]
struct Metadata {
    software: Option<String>,
    created_at: Option<DateTime<Utc>>,
    device: Option<String>,
}

fn corpus() -> (PathBuf, Vec<Entry>) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/corpus");
    let manifest: Manifest =
        serde_json::from_slice(&std::fs::read(dir.join("manifest.json")).unwrap()).unwrap();
    (dir, manifest.proofs)
}

fn kind_of(bytes: &[u8]) -> ProofKind {
    ProofKind::sniff(bytes).expect("a corpus file is a proof")
}

/// Variants that are the original picture saved again: a check must find them all.
const SAME_PICTURE: [&str; 5] = ["resaved", "jpeg", "scaled", "webp", "phone_photo"];

#[tokio::test]
async fn a_picture_saved_again_hashes_close_to_itself_and_far_from_other_payments() {
    let (dir, entries) = corpus();
    let mut hashes = BTreeMap::new();
    for entry in entries.iter().filter(|e| e.variant != "pdf") {
        let bytes = std::fs::read(dir.join(&entry.file)).unwrap();
        let evidence = FileExaminer.examine(kind_of(&bytes), bytes).await.unwrap();
        hashes.insert(entry.file.clone(), evidence.picture_hash.expect("decodes"));
    }
    let original = |payment: &str| {
        entries
            .iter()
            .find(|e| e.payment == payment && e.variant == "original")
            .map(|e| hashes[&e.file])
    };

    let mut missed = Vec::new();
    for entry in entries
        .iter()
        .filter(|e| SAME_PICTURE.contains(&e.variant.as_str()))
    {
        let distance = hashes[&entry.file].distance(&original(&entry.payment).unwrap());
        if distance > NEAR_REUSE_DISTANCE {
            missed.push(format!("{} ({distance})", entry.file));
        }
    }
    assert!(missed.is_empty(), "saved again but not near: {missed:?}");

    let originals: Vec<&Entry> = entries.iter().filter(|e| e.variant == "original").collect();
    let mut confused = Vec::new();
    for (i, a) in originals.iter().enumerate() {
        for b in &originals[i + 1..] {
            let distance = hashes[&a.file].distance(&hashes[&b.file]);
            if distance <= NEAR_REUSE_DISTANCE {
                confused.push(format!("{} ~ {} ({distance})", a.file, b.file));
            }
        }
    }
    assert!(
        confused.is_empty(),
        "distinct payments taken as one: {confused:?}"
    );
}

#[tokio::test]
async fn metadata_names_the_editor_the_device_and_when_the_file_was_made() {
    let (dir, entries) = corpus();
    for entry in &entries {
        let bytes = std::fs::read(dir.join(&entry.file)).unwrap();
        let evidence = FileExaminer.examine(kind_of(&bytes), bytes).await.unwrap();
        let file = &entry.file;
        if let Some(software) = &entry.metadata.software {
            assert!(evidence.software.contains(software), "{file}: {evidence:?}");
        }
        assert_eq!(
            editing_software(&evidence.software).is_some(),
            entry.variant == "edited"
                || entry
                    .metadata
                    .software
                    .as_deref()
                    .is_some_and(|s| { s.contains("Photoshop") || s.contains("Canva") }),
            "{file}: {evidence:?}"
        );
        assert_eq!(evidence.created_at, entry.metadata.created_at, "{file}");
        assert_eq!(
            evidence.device.is_some(),
            entry.metadata.device.is_some(),
            "{file}: {evidence:?}"
        );
    }
}

/// OCR is slow (about a second a proof): the originals, the edited copies and the PDFs.
#[tokio::test]
async fn the_reader_finds_amounts_references_dates_and_banks() {
    let reader = ProgramReader::detect();
    assert!(
        reader.reads_pictures(),
        "Tesseract with its Spanish model is needed: apt-get install tesseract-ocr tesseract-ocr-spa (make test-tools)"
    );
    let (dir, entries) = corpus();
    let read: Vec<Entry> = entries
        .into_iter()
        .filter(|e| matches!(e.variant.as_str(), "original" | "edited" | "pdf"))
        .collect();
    let (mut amounts, mut references, mut dates, mut banks) = (0, 0, 0, 0);
    let mut wrong = Vec::new();
    for entry in &read {
        let bytes = std::fs::read(dir.join(&entry.file)).unwrap();
        let ProofText::Read(text) = reader.read_text(kind_of(&bytes), bytes).await.unwrap() else {
            panic!("{} is read", entry.file);
        };
        let reading = read_proof(&text);
        let truth = &entry.truth;
        if reading.amounts.iter().any(|a| a.value == truth.amount) {
            amounts += 1;
        } else {
            wrong.push(format!("{} amount {:?}", entry.file, reading.amounts));
        }
        if reading.reference.as_deref().map(reference_key)
            == truth.reference.as_deref().map(reference_key)
        {
            references += 1;
        } else {
            wrong.push(format!("{} reference {:?}", entry.file, reading.reference));
        }
        if reading.date == Some(truth.date) {
            dates += 1;
        } else {
            wrong.push(format!("{} date {:?}", entry.file, reading.date));
        }
        if reading.bank == Some(truth.bank.as_str()) {
            banks += 1;
        } else {
            wrong.push(format!("{} bank {:?}", entry.file, reading.bank));
        }
        if std::env::var("SHOW_TEXT").is_ok() {
            eprintln!("--- {}\n{text}", entry.file);
        }
    }
    let total = read.len();
    eprintln!(
        "read {total} proofs: amount {amounts}, reference {references}, date {dates}, bank {banks}\n{}",
        wrong.join("\n")
    );
    // At least 90% of each field (BENCHMARKS.md has the measured figures).
    for (field, right) in [
        ("amount", amounts),
        ("reference", references),
        ("date", dates),
        ("bank", banks),
    ] {
        assert!(right * 10 >= total * 9, "{field}: {right} of {total}");
    }
}

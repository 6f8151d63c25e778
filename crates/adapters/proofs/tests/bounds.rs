//! What a hostile proof costs (issue 31): a PDF of a few hundred bytes whose page is five
//! metres wide, a picture full of text, a reader past its memory or its time. Each comes back as
//! a result about the file (`ProofText::NotRead`, recorded once) or as text read within the
//! pixel budget, never as an error the checker would try again; the real Tesseract and poppler
//! run.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::Cursor;
use std::path::PathBuf;
use std::time::Duration;

use image::{GrayImage, ImageFormat};
use rifa_domain::proof::ProofKind;
use rifa_domain::proof_signals::ReadFailure;
use rifa_ports::{ProofText, TextReader};
use rifa_proofs::{Bounds, ProgramReader};
use rifa_test_support::files::{pdf_of_picture, pdf_page};

fn corpus(file: &str) -> Vec<u8> {
    std::fs::read(
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("tests/corpus")
            .join(file),
    )
    .unwrap()
}

fn reader() -> ProgramReader {
    let reader = ProgramReader::detect();
    assert!(
        reader.reads_pictures(),
        "Tesseract with its Spanish model is needed: apt-get install tesseract-ocr tesseract-ocr-spa (make test-tools)"
    );
    assert!(
        reader.bounds_programs(),
        "prlimit (util-linux) bounds the readers"
    );
    reader
}

/// A Pago Móvil receipt (Bs. 15.839,00, Banesco) repeated `columns`×`rows` times, in grey.
fn receipts(columns: u32, rows: u32) -> Vec<u8> {
    let receipt = image::load_from_memory(&corpus("pago_movil-01-original.png"))
        .unwrap()
        .to_luma8();
    let (width, height) = receipt.dimensions();
    let mut sheet = GrayImage::new(width * columns, height * rows);
    for column in 0..columns {
        for row in 0..rows {
            image::imageops::replace(
                &mut sheet,
                &receipt,
                i64::from(column * width),
                i64::from(row * height),
            );
        }
    }
    let mut png = Vec::new();
    sheet
        .write_to(&mut Cursor::new(&mut png), ImageFormat::Png)
        .unwrap();
    png
}

#[tokio::test]
async fn a_pdf_page_five_metres_wide_is_refused_before_it_is_rendered() {
    // 14,400 points a side: at 200 dpi, 40,000 × 40,000 pixels (1.6 billion).
    let hostile = pdf_page(14_400, 14_400, &[]);
    assert!(hostile.len() < 1_000, "{} bytes", hostile.len());

    let read = reader().read_text(ProofKind::Pdf, hostile).await.unwrap();

    assert_eq!(
        read,
        ProofText::NotRead(ReadFailure::PageTooLarge {
            width_mm: 5_080,
            height_mm: 5_080
        })
    );
}

#[tokio::test]
async fn a_pdf_is_read_from_its_text_and_a_scanned_one_from_its_page() {
    let reader = reader();
    let printed = pdf_page(
        420,
        595,
        &[
            "Banesco",
            "Comprobante de Pago Móvil",
            "Monto: Bs. 3.751,00",
            "Referencia: 72644634",
        ],
    );
    let ProofText::Read(text) = reader.read_text(ProofKind::Pdf, printed).await.unwrap() else {
        panic!("read");
    };
    assert!(text.contains("Bs. 3.751,00"), "{text}");

    // The same receipt as a picture on an A5 page: rendered within the budget, then OCR.
    let scanned = pdf_of_picture(&corpus("pago_movil-01-original.png"), 420, 595);
    let ProofText::Read(text) = reader.read_text(ProofKind::Pdf, scanned).await.unwrap() else {
        panic!("read");
    };
    assert!(text.contains("15.839,00"), "{text}");
}

#[tokio::test]
async fn a_picture_full_of_text_is_read_reduced_to_the_pixel_budget_or_given_up() {
    // 5,400 × 6,840 pixels (37 million, under the 40 an attached picture may have): at full
    // size Tesseract took 22 s of CPU on it; reduced to 8 million, about 11 s.
    let sheet = receipts(10, 6);

    let read = reader().read_text(ProofKind::Png, sheet).await.unwrap();

    // Either outcome is final and bounded; on a machine busy with other work the clock may
    // run out first.
    match read {
        ProofText::Read(text) => assert!(text.contains("15.839,00"), "{text}"),
        ProofText::NotRead(ReadFailure::TooSlow { seconds }) => {
            let bounds = Bounds::default();
            assert!(
                seconds == bounds.cpu_seconds || u64::from(seconds) == bounds.time.as_secs(),
                "{seconds}"
            );
        }
        other => panic!("read, or given up as too slow: {other:?}"),
    }
}

#[tokio::test]
async fn a_reader_past_its_cpu_or_its_time_gives_the_file_up_as_too_slow() {
    // 2,700 × 3,420 pixels of receipts: about 4 s of Tesseract's CPU.
    let sheet = receipts(5, 3);
    let bounded = |cpu_seconds, time| {
        reader().with_bounds(Bounds {
            cpu_seconds,
            time,
            ..Bounds::default()
        })
    };

    let by_cpu = bounded(1, Duration::from_secs(60))
        .read_text(ProofKind::Png, sheet.clone())
        .await
        .unwrap();
    let by_clock = bounded(60, Duration::from_secs(1))
        .read_text(ProofKind::Png, sheet)
        .await
        .unwrap();

    assert_eq!(
        by_cpu,
        ProofText::NotRead(ReadFailure::TooSlow { seconds: 1 })
    );
    assert_eq!(
        by_clock,
        ProofText::NotRead(ReadFailure::TooSlow { seconds: 1 })
    );
}

#[tokio::test]
async fn a_reader_past_its_memory_fails_the_file_not_the_checker() {
    // Tesseract needs about 128 MB of address space for one receipt.
    let reader = reader().with_bounds(Bounds {
        memory_bytes: 48 << 20,
        ..Bounds::default()
    });

    let read = reader
        .read_text(ProofKind::Png, corpus("pago_movil-01-original.png"))
        .await
        .unwrap();

    assert_eq!(read, ProofText::NotRead(ReadFailure::ReaderFailed));
}

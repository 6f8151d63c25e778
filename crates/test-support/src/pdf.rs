//! Reading PDFs back in tests, with poppler's `pdftotext` (Debian package `poppler-utils`).

use std::io::Write;
use std::process::{Command, Stdio};

/// The text of `pdf`, in reading order.
///
/// # Panics
/// When `pdftotext` is missing (install `poppler-utils`) or cannot read the document.
#[must_use]
pub fn pdf_text(pdf: &[u8]) -> String {
    let mut child = Command::new("pdftotext")
        .args(["-layout", "-", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("pdftotext is needed to read PDFs back: apt-get install -y poppler-utils");
    child
        .stdin
        .take()
        .expect("stdin is piped")
        .write_all(pdf)
        .expect("failed to hand the PDF to pdftotext");
    let output = child.wait_with_output().expect("pdftotext failed");
    assert!(output.status.success(), "pdftotext could not read the PDF");
    String::from_utf8(output.stdout).expect("pdftotext writes UTF-8")
}

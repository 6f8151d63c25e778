//! [`ProofExaminer`]: a picture's perceptual hash (`image_hasher`), its metadata
//! (`kamadak-exif`: EXIF in JPEG, PNG and WEBP), and a PDF's information dictionary (`lopdf`).

use std::io::{BufReader, Cursor};

use chrono::{DateTime, FixedOffset, NaiveDate, TimeZone, Utc};
use image::DynamicImage;
use image_hasher::{HashAlg, HasherConfig};
use rifa_domain::proof::{MAX_PROOF_PIXELS, ProofKind};
use rifa_domain::proof_signals::PictureHash;
use rifa_ports::{ProofEvidence, ProofExaminer};

use crate::decode::{Picture, decode_picture, image_format, off_the_workers};

/// Examines proofs in process: no service, nothing to install.
#[derive(Debug, Clone, Copy, Default)]
pub struct FileExaminer;

impl ProofExaminer for FileExaminer {
    #[tracing::instrument(name = "proofs.file_examiner.examine", skip_all)]
    async fn examine(&self, kind: ProofKind, bytes: Vec<u8>) -> anyhow::Result<ProofEvidence> {
        Ok(off_the_workers("examine", move || examine(kind, &bytes))
            .await?
            .unwrap_or_default())
    }
}

fn examine(kind: ProofKind, bytes: &[u8]) -> ProofEvidence {
    match image_format(kind) {
        Some(format) => {
            let mut evidence = exif_evidence(bytes);
            if let Picture::Decoded(picture) = decode_picture(format, bytes, MAX_PROOF_PIXELS) {
                evidence.picture_hash = picture_hash(&picture);
            }
            evidence
        }
        None => pdf_evidence(bytes),
    }
}

/// The picture's [`PictureHash`]: pHash at 16×16 with the median as threshold. Of the
/// algorithms `image_hasher` offers, the one that best parts a picture saved again from another
/// receipt of the same app on the proof corpus (64-bit hashes put different receipts, mostly
/// white screens with the same layout, 0 to 6 bits apart).
#[must_use]
pub fn picture_hash(picture: &DynamicImage) -> Option<PictureHash> {
    let hasher = HasherConfig::new()
        .hash_size(16, 16)
        .hash_alg(HashAlg::Median)
        .preproc_dct()
        .to_hasher();
    <[u8; 32]>::try_from(hasher.hash_image(picture).as_bytes())
        .ok()
        .map(PictureHash)
}

fn exif_evidence(bytes: &[u8]) -> ProofEvidence {
    let Ok(exif) = exif::Reader::new().read_from_container(&mut BufReader::new(Cursor::new(bytes)))
    else {
        return ProofEvidence::default();
    };
    let text = |tag| {
        exif.get_field(tag, exif::In::PRIMARY)
            .and_then(|field| match &field.value {
                exif::Value::Ascii(parts) => parts.first().map(|part| {
                    String::from_utf8_lossy(part)
                        .trim_matches(char::from(0))
                        .trim()
                        .to_owned()
                }),
                _ => None,
            })
            .filter(|value| !value.is_empty())
    };
    let taken = |date_tag, offset_tag| {
        let mut date = exif::DateTime::from_ascii(text(date_tag)?.as_bytes()).ok()?;
        if let Some(offset) = text(offset_tag) {
            // A bad offset leaves the time in UTC, as one without any.
            let _ = date.parse_offset(offset.as_bytes());
        }
        exif_time(&date)
    };
    let device = [text(exif::Tag::Make), text(exif::Tag::Model)]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join(" ");
    ProofEvidence {
        picture_hash: None,
        software: text(exif::Tag::Software).into_iter().collect(),
        created_at: taken(exif::Tag::DateTimeOriginal, exif::Tag::OffsetTimeOriginal)
            .or_else(|| taken(exif::Tag::DateTime, exif::Tag::OffsetTime)),
        device: (!device.is_empty()).then_some(device),
    }
}

fn exif_time(date: &exif::DateTime) -> Option<DateTime<Utc>> {
    let local = NaiveDate::from_ymd_opt(
        i32::from(date.year),
        u32::from(date.month),
        u32::from(date.day),
    )?
    .and_hms_opt(
        u32::from(date.hour),
        u32::from(date.minute),
        u32::from(date.second),
    )?;
    let offset = FixedOffset::east_opt(i32::from(date.offset.unwrap_or(0)) * 60)?;
    offset
        .from_local_datetime(&local)
        .single()
        .map(|at| at.with_timezone(&Utc))
}

fn pdf_evidence(bytes: &[u8]) -> ProofEvidence {
    let Ok(document) = lopdf::Document::load_mem(bytes) else {
        return ProofEvidence::default();
    };
    let info = document
        .trailer
        .get(b"Info")
        .and_then(lopdf::Object::as_reference)
        .and_then(|id| document.get_dictionary(id));
    let Ok(info) = info else {
        return ProofEvidence::default();
    };
    let text = |key: &[u8]| {
        info.get(key)
            .and_then(lopdf::Object::as_str)
            .ok()
            .map(pdf_text)
            .filter(|value| !value.trim().is_empty())
    };
    ProofEvidence {
        picture_hash: None,
        software: [text(b"Producer"), text(b"Creator")]
            .into_iter()
            .flatten()
            .collect(),
        created_at: text(b"CreationDate").as_deref().and_then(pdf_date),
        device: None,
    }
}

/// A PDF text string: UTF-16BE after its byte-order mark, otherwise (PDFDocEncoding) read as
/// Latin-1, which it matches for every letter Spanish uses.
fn pdf_text(bytes: &[u8]) -> String {
    match bytes {
        [0xFE, 0xFF, rest @ ..] => {
            let units: Vec<u16> = rest
                .chunks_exact(2)
                .map(|pair| u16::from_be_bytes([pair[0], pair[1]]))
                .collect();
            String::from_utf16_lossy(&units)
        }
        _ => bytes.iter().map(|&byte| char::from(byte)).collect(),
    }
}

/// `D:YYYYMMDDHHmmSS` with an optional `Z` or `±HH'mm'`; missing parts of the time are zero.
fn pdf_date(raw: &str) -> Option<DateTime<Utc>> {
    let raw = raw.trim().strip_prefix("D:").unwrap_or(raw.trim());
    let digits: String = raw.chars().take_while(char::is_ascii_digit).collect();
    if digits.len() < 4 {
        return None;
    }
    let part = |from: usize, to: usize, default: u32| {
        digits
            .get(from..to)
            .map_or(Some(default), |text| text.parse().ok())
    };
    let year = i32::try_from(part(0, 4, 0)?).ok()?;
    let local = NaiveDate::from_ymd_opt(year, part(4, 6, 1)?, part(6, 8, 1)?)?.and_hms_opt(
        part(8, 10, 0)?,
        part(10, 12, 0)?,
        part(12, 14, 0)?,
    )?;
    let zone = &raw[digits.len()..];
    let offset_minutes = match zone.chars().next() {
        Some(sign @ ('+' | '-')) => {
            let numbers: Vec<i32> = zone[1..]
                .split(['\'', ':'])
                .filter(|part| !part.is_empty())
                .map(str::parse)
                .collect::<Result<_, _>>()
                .ok()?;
            let minutes =
                numbers.first().copied().unwrap_or(0) * 60 + numbers.get(1).copied().unwrap_or(0);
            if sign == '-' { -minutes } else { minutes }
        }
        _ => 0,
    };
    FixedOffset::east_opt(offset_minutes * 60)?
        .from_local_datetime(&local)
        .single()
        .map(|at| at.with_timezone(&Utc))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn pdf_dates_are_read_with_their_zone() {
        let at = |text: &str| text.parse::<DateTime<Utc>>().unwrap();
        assert_eq!(
            pdf_date("D:20261127140300-04'00'"),
            Some(at("2026-11-27T18:03:00Z"))
        );
        assert_eq!(
            pdf_date("D:20261127140300Z"),
            Some(at("2026-11-27T14:03:00Z"))
        );
        assert_eq!(pdf_date("D:2026112714"), Some(at("2026-11-27T14:00:00Z")));
        assert_eq!(pdf_date("D:20261341"), None);
        assert_eq!(pdf_date("yesterday"), None);
    }

    #[test]
    fn pdf_text_strings_in_utf16_and_latin1() {
        assert_eq!(pdf_text(&[0xFE, 0xFF, 0, b'C', 0, 0xE1]), "Cá".to_owned());
        assert_eq!(pdf_text(b"Canva \xe1"), "Canva á".to_owned());
    }
}

//! Payment-proof files for tests: small real ones, and crafted ones whose first bytes lie.

/// A real 2×2 RGB PNG (74 bytes).
pub const PNG_2X2: &[u8] = &[
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52,
    0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x02, 0x08, 0x02, 0x00, 0x00, 0x00, 0xfd, 0xd4, 0x9a,
    0x73, 0x00, 0x00, 0x00, 0x11, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9c, 0x63, 0xf8, 0xcf, 0xc0, 0xc0,
    0x00, 0xc2, 0x20, 0x0a, 0x08, 0x00, 0x23, 0xec, 0x05, 0xfb, 0x4e, 0x77, 0xc5, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82,
];

/// A minimal one-page PDF, with the cross-reference table a reader needs.
pub const PDF_ONE_PAGE: &[u8] = concat!(
    "%PDF-1.4\n",
    "1 0 obj <</Type /Catalog /Pages 2 0 R>> endobj\n",
    "2 0 obj <</Type /Pages /Kids [3 0 R] /Count 1>> endobj\n",
    "3 0 obj <</Type /Page /Parent 2 0 R /MediaBox [0 0 200 200]>> endobj\n",
    "xref\n",
    "0 4\n",
    "0000000000 65535 f \n",
    "0000000009 00000 n \n",
    "0000000056 00000 n \n",
    "0000000111 00000 n \n",
    "trailer <</Size 4 /Root 1 0 R>>\n",
    "startxref\n",
    "180\n",
    "%%EOF\n",
)
.as_bytes();

/// The 8-byte PNG signature and nothing else.
pub const PNG_SIGNATURE_ONLY: &[u8] = b"\x89PNG\r\n\x1a\n";

/// An HTML page behind a `%PDF-` prefix: a PDF by its first bytes, a script to a browser.
pub const HTML_BEHIND_PDF_SIGNATURE: &[u8] =
    b"%PDF-1.7\n<html><body><script>alert(document.cookie)</script></body></html>\n%%EOF\n";

/// The start of a PNG whose header claims `width`×`height` pixels (valid signature, `IHDR` with
/// its CRC, an empty `IDAT`, the end): what a decoder reads to learn the dimensions, and no
/// pixels.
#[must_use]
pub fn png_claiming(width: u32, height: u32) -> Vec<u8> {
    let mut png = PNG_SIGNATURE_ONLY.to_vec();
    let mut ihdr = b"IHDR".to_vec();
    ihdr.extend(width.to_be_bytes());
    ihdr.extend(height.to_be_bytes());
    // 8-bit RGB, deflate, adaptive filtering, no interlace.
    ihdr.extend([8, 2, 0, 0, 0]);
    png.extend(13_u32.to_be_bytes());
    png.extend(&ihdr);
    png.extend(crc32(&ihdr).to_be_bytes());
    // Readers learn the dimensions once the image data starts: an empty `IDAT`.
    png.extend(0_u32.to_be_bytes());
    png.extend(b"IDAT");
    png.extend(crc32(b"IDAT").to_be_bytes());
    png.extend(0_u32.to_be_bytes());
    png.extend(b"IEND");
    png.extend(crc32(b"IEND").to_be_bytes());
    png
}

/// The CRC-32 PNG chunks carry (ISO 3309, as in zlib).
fn crc32(bytes: &[u8]) -> u32 {
    !bytes.iter().fold(u32::MAX, |crc, &byte| {
        (0..8).fold(crc ^ u32::from(byte), |c, _| {
            if c & 1 == 1 {
                (c >> 1) ^ 0xEDB8_8320
            } else {
                c >> 1
            }
        })
    })
}

/// A real WEBP (lossless) of `width`×`height` pixels, as Android phones save screenshots.
#[must_use]
pub fn webp(width: u32, height: u32) -> Vec<u8> {
    let mut bytes = Vec::new();
    image::DynamicImage::ImageRgb8(image::RgbImage::new(width, height))
        .write_to(
            &mut std::io::Cursor::new(&mut bytes),
            image::ImageFormat::WebP,
        )
        .expect("the image crate encodes WEBP");
    bytes
}

/// The format and size of a picture, as a browser would decode it.
#[must_use]
pub fn decoded(bytes: &[u8]) -> (image::ImageFormat, u32, u32) {
    let format = image::guess_format(bytes).expect("a picture");
    let picture = image::load_from_memory(bytes).expect("a decodable picture");
    (format, picture.width(), picture.height())
}

/// A one-page PDF of `width`×`height` points (its `MediaBox`) showing `lines` in Helvetica, with
/// no metadata, made with lopdf: a receipt as a bank's site prints it, or, at an absurd size,
/// a few hundred bytes asking a renderer for billions of pixels.
#[must_use]
pub fn pdf_page(width: u32, height: u32, lines: &[&str]) -> Vec<u8> {
    use lopdf::content::{Content, Operation};
    use lopdf::{Document, Object, Stream, StringFormat, dictionary};

    let mut document = Document::with_version("1.4");
    let pages = document.new_object_id();
    let font = document.add_object(dictionary! {
        "Type" => "Font", "Subtype" => "Type1", "BaseFont" => "Helvetica",
        "Encoding" => "WinAnsiEncoding",
    });
    let mut operations = vec![
        Operation::new("BT", vec![]),
        Operation::new("Tf", vec!["F1".into(), 14.into()]),
        Operation::new("TL", vec![20.into()]),
        Operation::new("Td", vec![40.into(), height.saturating_sub(60).into()]),
    ];
    for line in lines {
        // WinAnsi matches Latin-1 for every letter Spanish uses.
        let text = line
            .chars()
            .map(|c| u8::try_from(c).unwrap_or(b'?'))
            .collect();
        operations.push(Operation::new(
            "Tj",
            vec![Object::String(text, StringFormat::Literal)],
        ));
        operations.push(Operation::new("T*", vec![]));
    }
    operations.push(Operation::new("ET", vec![]));
    let content = document.add_object(Stream::new(
        dictionary! {},
        Content { operations }.encode().unwrap(),
    ));
    let page = document.add_object(dictionary! {
        "Type" => "Page",
        "Parent" => pages,
        "Contents" => content,
        "Resources" => dictionary! { "Font" => dictionary! { "F1" => font } },
        "MediaBox" => vec![0.into(), 0.into(), width.into(), height.into()],
    });
    document.objects.insert(
        pages,
        Object::Dictionary(dictionary! {
            "Type" => "Pages", "Kids" => vec![page.into()], "Count" => 1,
        }),
    );
    let catalog = document.add_object(dictionary! { "Type" => "Catalog", "Pages" => pages });
    document.trailer.set("Root", catalog);
    let mut bytes = Vec::new();
    document.save_to(&mut bytes).unwrap();
    bytes
}

/// A one-page PDF of `width`×`height` points showing `picture` (PNG, JPEG…) over the whole page
/// and no text of its own: a receipt printed and scanned.
#[must_use]
pub fn pdf_of_picture(picture: &[u8], width: u32, height: u32) -> Vec<u8> {
    use lopdf::content::{Content, Operation};
    use lopdf::{Document, Object, Stream, dictionary};

    let grey = image::load_from_memory(picture).unwrap().to_luma8();
    let mut document = Document::with_version("1.4");
    let pages = document.new_object_id();
    let mut pixels = Stream::new(
        dictionary! {
            "Type" => "XObject", "Subtype" => "Image",
            "Width" => grey.width(), "Height" => grey.height(),
            "ColorSpace" => "DeviceGray", "BitsPerComponent" => 8,
        },
        grey.into_raw(),
    );
    pixels.compress().unwrap();
    let scan = document.add_object(pixels);
    let draw = Content {
        operations: vec![
            Operation::new("q", vec![]),
            Operation::new(
                "cm",
                vec![
                    width.into(),
                    0.into(),
                    0.into(),
                    height.into(),
                    0.into(),
                    0.into(),
                ],
            ),
            Operation::new("Do", vec!["Scan".into()]),
            Operation::new("Q", vec![]),
        ],
    };
    let content = document.add_object(Stream::new(dictionary! {}, draw.encode().unwrap()));
    let page = document.add_object(dictionary! {
        "Type" => "Page",
        "Parent" => pages,
        "Contents" => content,
        "Resources" => dictionary! { "XObject" => dictionary! { "Scan" => scan } },
        "MediaBox" => vec![0.into(), 0.into(), width.into(), height.into()],
    });
    document.objects.insert(
        pages,
        Object::Dictionary(dictionary! {
            "Type" => "Pages", "Kids" => vec![page.into()], "Count" => 1,
        }),
    );
    let catalog = document.add_object(dictionary! { "Type" => "Catalog", "Pages" => pages });
    document.trailer.set("Root", catalog);
    let mut bytes = Vec::new();
    document.save_to(&mut bytes).unwrap();
    bytes
}

/// The start of a HEIC photo as an iPhone saves it (`ftyp` box, brand `heic`).
pub const HEIC_START: &[u8] = b"\0\0\0\x18ftypheic\0\0\0\0mif1heic\0\0\x01\x0ameta";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_crafted_png_header_carries_the_crc_png_readers_check() {
        // IEND's CRC is the same in every PNG.
        assert_eq!(crc32(b"IEND"), 0xAE42_6082);
        assert_eq!(&PNG_2X2[PNG_2X2.len() - 4..], &crc32(b"IEND").to_be_bytes());
        assert_eq!(png_claiming(30_000, 30_000).len(), 8 + 25 + 12 + 12);
    }
}

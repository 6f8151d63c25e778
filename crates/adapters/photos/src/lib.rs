//! The staff's photos (a raffle's, a prize's, a delivery's) as the site serves them.
//!
//! An upload is never served as sent: its header is read first (at most
//! [`MAX_PHOTO_PIXELS`], under a memory limit), then its pixels; it is turned upright by its
//! EXIF orientation (a phone's portrait photo is stored sideways), fitted within
//! [`SERVED_SIDE`] pixels a side, and encoded again: JPEG at quality 85, or PNG when it has
//! transparency. What we serve carries no metadata (no GPS position, no camera) and is a
//! picture this code made, whatever the file held besides its pixels.

use std::io::Cursor;

use image::codecs::jpeg::JpegEncoder;
use image::imageops::FilterType;
use image::{DynamicImage, ImageDecoder as _, ImageFormat, ImageReader, Limits};
use rifa_domain::photo::{MAX_PHOTO_PIXELS, PhotoFormat, SERVED_SIDE};
use rifa_ports::outbound::{EncodedPhoto, PhotoEncoder, PhotoRefusal};

const JPEG_QUALITY: u8 = 85;

/// The photo encoder of the product: the budgets of `rifa_domain::photo`.
#[derive(Debug, Clone, Copy, Default)]
pub struct Photos;

impl PhotoEncoder for Photos {
    fn encode(&self, bytes: &[u8]) -> Result<EncodedPhoto, PhotoRefusal> {
        encode(bytes, MAX_PHOTO_PIXELS, SERVED_SIDE)
    }
}

fn format_of(bytes: &[u8]) -> Result<ImageFormat, PhotoRefusal> {
    // ISO base media files whose brand is HEIC/HEIF/AVIF: a phone's photo no browser shows.
    if bytes.len() >= 12 && &bytes[4..8] == b"ftyp" {
        return Err(PhotoRefusal::Heif);
    }
    match image::guess_format(bytes) {
        Ok(
            format @ (ImageFormat::Jpeg | ImageFormat::Png | ImageFormat::Gif | ImageFormat::WebP),
        ) => Ok(format),
        _ => Err(PhotoRefusal::NotAPicture),
    }
}

fn encode(bytes: &[u8], max_pixels: u64, side: u32) -> Result<EncodedPhoto, PhotoRefusal> {
    let format = format_of(bytes)?;
    let mut reader = ImageReader::with_format(Cursor::new(bytes), format);
    let mut limits = Limits::default();
    // Room for the decoded pixels at 4 bytes each and the decoder's own buffers.
    limits.max_alloc = Some(max_pixels.saturating_mul(4).saturating_add(64 << 20));
    reader.limits(limits);
    let mut decoder = reader
        .into_decoder()
        .map_err(|_| PhotoRefusal::Unreadable)?;
    let (width, height) = decoder.dimensions();
    if u64::from(width) * u64::from(height) > max_pixels {
        return Err(PhotoRefusal::TooManyPixels { max_pixels });
    }
    let orientation = decoder.orientation().ok();
    let mut picture = DynamicImage::from_decoder(decoder).map_err(|_| PhotoRefusal::Unreadable)?;
    if let Some(orientation) = orientation {
        picture.apply_orientation(orientation);
    }
    if picture.width() > side || picture.height() > side {
        picture = picture.resize(side, side, FilterType::Lanczos3);
    }
    let (width, height) = (picture.width(), picture.height());
    let mut out = Vec::new();
    let format = if picture.color().has_alpha() {
        picture
            .to_rgba8()
            .write_to(&mut Cursor::new(&mut out), ImageFormat::Png)
            .map_err(|_| PhotoRefusal::Unreadable)?;
        PhotoFormat::Png
    } else {
        picture
            .to_rgb8()
            .write_with_encoder(JpegEncoder::new_with_quality(&mut out, JPEG_QUALITY))
            .map_err(|_| PhotoRefusal::Unreadable)?;
        PhotoFormat::Jpeg
    };
    Ok(EncodedPhoto {
        bytes: out,
        format,
        width,
        height,
    })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use image::{Rgb, RgbImage, Rgba, RgbaImage};

    use super::*;

    fn png(picture: &DynamicImage) -> Vec<u8> {
        let mut out = Vec::new();
        picture
            .write_to(&mut Cursor::new(&mut out), ImageFormat::Png)
            .unwrap();
        out
    }

    /// A JPEG `width`×`height`, left half red and right half blue, with an EXIF APP1 segment
    /// carrying `orientation` and a GPS position.
    fn phone_jpeg(width: u32, height: u32, orientation: u16) -> Vec<u8> {
        let picture = RgbImage::from_fn(width, height, |x, _| {
            if x < width / 2 {
                Rgb([220, 0, 0])
            } else {
                Rgb([0, 0, 220])
            }
        });
        let mut jpeg = Vec::new();
        DynamicImage::ImageRgb8(picture)
            .write_with_encoder(JpegEncoder::new_with_quality(&mut jpeg, 90))
            .unwrap();
        let mut exif = Vec::new();
        let mut writer = exif::experimental::Writer::new();
        let orientation = exif::Field {
            tag: exif::Tag::Orientation,
            ifd_num: exif::In::PRIMARY,
            value: exif::Value::Short(vec![orientation]),
        };
        let latitude = exif::Field {
            tag: exif::Tag::GPSLatitude,
            ifd_num: exif::In::PRIMARY,
            value: exif::Value::Rational(vec![(10, 1).into(), (30, 1).into(), (0, 1).into()]),
        };
        writer.push_field(&orientation);
        writer.push_field(&latitude);
        writer.write(&mut Cursor::new(&mut exif), false).unwrap();
        // SOI, then APP1 "Exif\0\0" + TIFF, then the rest of the JPEG.
        let mut out = jpeg[..2].to_vec();
        out.extend_from_slice(&[0xFF, 0xE1]);
        out.extend_from_slice(&u16::try_from(exif.len() + 8).unwrap().to_be_bytes());
        out.extend_from_slice(b"Exif\0\0");
        out.extend_from_slice(&exif);
        out.extend_from_slice(&jpeg[2..]);
        out
    }

    #[test]
    fn a_large_photo_is_fitted_within_the_served_side_as_jpeg() {
        let picture = DynamicImage::ImageRgb8(RgbImage::from_pixel(3000, 1500, Rgb([10, 200, 30])));

        let encoded = encode(&png(&picture), MAX_PHOTO_PIXELS, SERVED_SIDE).unwrap();

        assert_eq!((encoded.width, encoded.height), (1600, 800));
        assert_eq!(encoded.format, PhotoFormat::Jpeg);
        assert_eq!(
            image::guess_format(&encoded.bytes).unwrap(),
            ImageFormat::Jpeg
        );
        let back = image::load_from_memory(&encoded.bytes).unwrap().to_rgb8();
        assert_eq!((back.width(), back.height()), (1600, 800));
        let Rgb([r, g, b]) = *back.get_pixel(800, 400);
        assert!(r < 40 && g > 160 && b < 60, "{r} {g} {b}");
    }

    #[test]
    fn a_small_transparent_picture_keeps_its_size_and_its_transparency() {
        let picture = DynamicImage::ImageRgba8(RgbaImage::from_pixel(40, 30, Rgba([0, 0, 0, 0])));

        let encoded = encode(&png(&picture), MAX_PHOTO_PIXELS, SERVED_SIDE).unwrap();

        assert_eq!(
            (encoded.width, encoded.height, encoded.format),
            (40, 30, PhotoFormat::Png)
        );
        let back = image::load_from_memory(&encoded.bytes).unwrap().to_rgba8();
        assert_eq!(back.get_pixel(5, 5)[3], 0);
    }

    #[test]
    fn a_phone_photo_is_turned_upright_and_loses_its_metadata() {
        // Stored 400×200 (red left, blue right), to be shown rotated 90° clockwise (EXIF 6):
        // upright it is 200×400 with red on top.
        let jpeg = phone_jpeg(400, 200, 6);
        assert!(
            exif::Reader::new()
                .read_from_container(&mut Cursor::new(&jpeg))
                .is_ok()
        );

        let encoded = encode(&jpeg, MAX_PHOTO_PIXELS, SERVED_SIDE).unwrap();

        assert_eq!((encoded.width, encoded.height), (200, 400));
        let back = image::load_from_memory(&encoded.bytes).unwrap().to_rgb8();
        let top = back.get_pixel(100, 50);
        let bottom = back.get_pixel(100, 350);
        assert!(top[0] > 150 && top[2] < 80, "top {top:?}");
        assert!(bottom[2] > 150 && bottom[0] < 80, "bottom {bottom:?}");
        assert!(
            exif::Reader::new()
                .read_from_container(&mut Cursor::new(&encoded.bytes))
                .is_err(),
            "no EXIF (orientation, GPS) is served"
        );
    }

    #[test]
    fn what_is_not_a_picture_we_serve_is_refused_for_its_reason() {
        let heic = [b"\0\0\0\x18ftypheic".as_slice(), &[0; 16]].concat();
        let pdf = b"%PDF-1.4\n%\xe2\xe3\n".to_vec();
        let mut truncated = png(&DynamicImage::ImageRgb8(RgbImage::new(64, 64)));
        truncated.truncate(60);
        let big = png(&DynamicImage::ImageRgb8(RgbImage::new(200, 100)));

        assert_eq!(
            encode(&heic, MAX_PHOTO_PIXELS, SERVED_SIDE),
            Err(PhotoRefusal::Heif)
        );
        assert_eq!(
            encode(&pdf, MAX_PHOTO_PIXELS, SERVED_SIDE),
            Err(PhotoRefusal::NotAPicture)
        );
        assert_eq!(
            encode(&[], MAX_PHOTO_PIXELS, SERVED_SIDE),
            Err(PhotoRefusal::NotAPicture)
        );
        assert_eq!(
            encode(&truncated, MAX_PHOTO_PIXELS, SERVED_SIDE),
            Err(PhotoRefusal::Unreadable)
        );
        // The header's size is judged before any pixel is decoded.
        assert_eq!(
            encode(&big, 19_999, SERVED_SIDE),
            Err(PhotoRefusal::TooManyPixels { max_pixels: 19_999 })
        );
    }
}

//! Reading payment proofs (issue 16): whether a file is the picture or PDF it claims to be
//! ([`DecodingInspector`], when it is attached), and, off the request path, what the reviewer
//! is told about it — its picture's perceptual hash and its metadata ([`FileExaminer`]) and the
//! text it shows ([`ProgramReader`]: Tesseract and poppler, when installed).

mod decode;
mod examine;
mod read;

pub use decode::DecodingInspector;
pub use examine::{FileExaminer, picture_hash};
pub use read::{Bounds, DEBIAN_PACKAGES, OCR_MAX_PIXELS, ProgramReader, RENDER_MIN_DPI};

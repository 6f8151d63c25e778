//! The receipt's fonts: DejaVu Sans (regular and bold) for most scripts, Droid Sans Fallback for
//! CJK, each cut down per receipt to the glyphs that receipt draws (see `fonts/README.md`).

use std::collections::{BTreeSet, HashMap};

use allsorts::binary::read::ReadScope;
use allsorts::font::read_cmap_subtable;
use allsorts::font_data::FontData;
use allsorts::subset::{CmapTarget, SubsetProfile, subset};
use allsorts::tables::FontTableProvider as _;
use allsorts::tables::cmap::Cmap;
use allsorts::tag;
use anyhow::Context as _;

const SANS_REGULAR: &[u8] = include_bytes!("../fonts/DejaVuSans.ttf");
const SANS_BOLD: &[u8] = include_bytes!("../fonts/DejaVuSans-Bold.ttf");
const CJK: &[u8] = include_bytes!("../fonts/DroidSansFallbackFull.ttf");

/// One shipped TrueType font and which characters it has.
pub(crate) struct Face {
    bytes: &'static [u8],
    glyphs: HashMap<char, u16>,
}

impl Face {
    fn new(bytes: &'static [u8]) -> anyhow::Result<Self> {
        let file = ReadScope::new(bytes)
            .read::<FontData<'_>>()
            .context("failed to read a receipt font")?;
        let provider = file
            .table_provider(0)
            .context("failed to read a receipt font")?;
        let cmap_data = provider
            .read_table_data(tag::CMAP)
            .context("a receipt font has no cmap")?;
        let cmap = ReadScope::new(&cmap_data)
            .read::<Cmap<'_>>()
            .context("failed to read a receipt font's cmap")?;
        let (_, subtable) = read_cmap_subtable(&cmap)
            .context("failed to read a receipt font's cmap")?
            .context("a receipt font has no Unicode cmap")?;
        let mut glyphs = HashMap::new();
        subtable
            .mappings_fn(|code, glyph| {
                if let Some(c) = char::from_u32(code).filter(|_| glyph != 0) {
                    glyphs.insert(c, glyph);
                }
            })
            .context("failed to read a receipt font's cmap")?;
        Ok(Self { bytes, glyphs })
    }

    pub(crate) fn has(&self, c: char) -> bool {
        self.glyphs.contains_key(&c)
    }

    /// A standalone TrueType font with only the glyphs of `chars` (and `.notdef`), keeping a
    /// Unicode cmap: genpdf measures and maps text through it, and printpdf writes the PDF's
    /// `ToUnicode` table from it, so the text still copies and extracts as typed.
    ///
    /// # Errors
    /// Only if the shipped font could not be subset (it was corrupted at build time).
    pub(crate) fn subset(&self, chars: &BTreeSet<char>) -> anyhow::Result<Vec<u8>> {
        let mut glyphs: Vec<u16> = chars
            .iter()
            .filter_map(|c| self.glyphs.get(c))
            .copied()
            .collect();
        glyphs.sort_unstable();
        glyphs.dedup();
        glyphs.insert(0, 0);
        let file = ReadScope::new(self.bytes)
            .read::<FontData<'_>>()
            .context("failed to read a receipt font")?;
        let provider = file
            .table_provider(0)
            .context("failed to read a receipt font")?;
        // Only what genpdf (rusttype) and PDF viewers read: no names (DejaVu's carry its whole
        // licence), no hinting programs (viewers render PDFs unhinted).
        let tables = vec![
            tag::CMAP,
            tag::HEAD,
            tag::HHEA,
            tag::HMTX,
            tag::MAXP,
            tag::POST,
        ];
        subset(
            &provider,
            &glyphs,
            &SubsetProfile::Custom(tables),
            CmapTarget::Unicode,
        )
        .context("failed to subset a receipt font")
    }

    /// The whole font, for measuring text before the receipt's glyphs are known.
    pub(crate) fn bytes(&self) -> &'static [u8] {
        self.bytes
    }
}

/// The three faces, read once at start-up.
pub(crate) struct Faces {
    pub regular: Face,
    pub bold: Face,
    pub cjk: Face,
}

impl Faces {
    pub(crate) fn load() -> anyhow::Result<Self> {
        Ok(Self {
            regular: Face::new(SANS_REGULAR)?,
            bold: Face::new(SANS_BOLD)?,
            cjk: Face::new(CJK)?,
        })
    }

    /// Whether `c` is drawn with the CJK fallback: only what DejaVu lacks and Droid has.
    pub(crate) fn needs_fallback(&self, c: char) -> bool {
        !self.regular.has(c) && self.cjk.has(c)
    }

    /// Whether any shipped face can draw `c`.
    pub(crate) fn can_draw(&self, c: char) -> bool {
        c == ' ' || self.regular.has(c) || self.cjk.has(c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_subset_keeps_only_the_glyphs_asked_for_and_their_characters() {
        let faces = Faces::load().unwrap();
        let chars: BTreeSet<char> = "Łukasz Żółć Nguyễn محمد".chars().collect();

        let small = faces.regular.subset(&chars).unwrap();

        assert!(small.len() < 8 * 1024, "{} bytes", small.len());
        let face = Face::new(Box::leak(small.into_boxed_slice())).unwrap();
        for c in chars.iter().filter(|c| **c != ' ') {
            assert!(face.has(*c), "{c:?} lost");
        }
        assert!(!face.has('x'));
    }

    #[test]
    fn only_what_dejavu_lacks_falls_back_to_the_cjk_face() {
        let faces = Faces::load().unwrap();
        assert!(faces.needs_fallback('王'));
        assert!(faces.needs_fallback('ひ'));
        assert!(!faces.needs_fallback('Ł'));
        assert!(!faces.needs_fallback('م'));
        assert!(!faces.can_draw('🎉'));
    }
}

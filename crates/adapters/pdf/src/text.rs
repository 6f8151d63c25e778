//! Turning what a buyer typed into the characters a PDF page draws, left to right.
//!
//! genpdf places one glyph per character, in order, from left to right: it neither shapes nor
//! reorders. So right-to-left text is shaped and reordered here first: Arabic letters become the
//! presentation form for their place in the word (initial, medial, final, isolated; the
//! `ar-reshaper` crate), then every line is put in visual order by the Unicode bidirectional
//! algorithm (`unicode-bidi`). Hebrew needs only the reordering.

use std::borrow::Cow;

use unicode_bidi::BidiInfo;
use unicode_normalization::UnicodeNormalization as _;

/// `text` as the page draws it: composed (NFC, so a decomposed `e` + combining acute is one
/// `é` glyph), invisible format characters dropped, any kind of space or line break a plain
/// space, right-to-left runs shaped and in visual order, and characters no shipped font has
/// (`can_draw` false: emoji, scripts without a font here) shown as `?`. Nothing here fails:
/// whatever a buyer typed, the receipt renders.
pub(crate) fn for_page(text: &str, can_draw: impl Fn(char) -> bool) -> String {
    let mut clean = String::with_capacity(text.len());
    for c in text.nfc() {
        match c {
            '\u{AD}'
            | '\u{200B}'..='\u{200F}'
            | '\u{202A}'..='\u{202E}'
            | '\u{2060}'..='\u{2069}'
            | '\u{FEFF}' => {}
            '\u{A0}' | '\t' | '\n' | '\r' | '\u{2000}'..='\u{200A}' | '\u{202F}' => {
                clean.push(' ');
            }
            c if c.is_control() => clean.push('?'),
            c => clean.push(c),
        }
    }
    let visual = visual_order(&clean);
    visual
        .chars()
        .map(|c| if can_draw(c) { c } else { '?' })
        .collect()
}

/// Right-to-left runs shaped and reversed into drawing order; left-to-right text is untouched.
fn visual_order(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_right_to_left) {
        return Cow::Borrowed(text);
    }
    let shaped = ar_reshaper::reshape_line(text);
    let info = BidiInfo::new(&shaped, None);
    let visual: String = info
        .paragraphs
        .iter()
        .map(|paragraph| info.reorder_line(paragraph, paragraph.range.clone()))
        .collect();
    Cow::Owned(visual)
}

/// Hebrew, Arabic, Syriac, Thaana, NKo… and their presentation forms.
fn is_right_to_left(c: char) -> bool {
    matches!(c, '\u{0590}'..='\u{08FF}' | '\u{FB1D}'..='\u{FDFF}' | '\u{FE70}'..='\u{FEFF}')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(text: &str) -> String {
        for_page(text, |c| c != '🎉')
    }

    #[test]
    fn latin_greek_cyrillic_and_cjk_pass_untouched() {
        let text = "¡Hola! José Núñez, Łukasz Żółć, Nguyễn Thị Minh Khai, Ελένη, Пётр, 王芳";
        assert_eq!(page(text), text);
    }

    #[test]
    fn decomposed_accents_are_composed() {
        assert_eq!(page("Jose\u{301} Mun\u{303}oz"), "José Muñoz");
    }

    #[test]
    fn invisible_and_undrawable_characters_do_not_reach_the_page() {
        assert_eq!(page("a\u{A0}b\u{AD}c\td\u{0}e\u{200B}f 🎉"), "a bc d?ef ?");
    }

    #[test]
    fn arabic_is_shaped_and_drawn_right_to_left() {
        // م ح م د: initial meem, medial hah, medial meem, final dal, drawn last letter first.
        assert_eq!(page("محمد"), "\u{FEAA}\u{FEE4}\u{FEA4}\u{FEE3}");
        // Latin around it keeps its place and order; a number after Arabic joins its run.
        assert_eq!(page("Ana محمد"), "Ana \u{FEAA}\u{FEE4}\u{FEA4}\u{FEE3}");
        assert_eq!(page("محمد 7"), "7 \u{FEAA}\u{FEE4}\u{FEA4}\u{FEE3}");
    }
}

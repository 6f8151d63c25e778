//! Narrowing text to what the PDF viewer's built-in fonts can draw (Windows-1252).

use unicode_normalization::UnicodeNormalization as _;
use unicode_normalization::char::is_combining_mark;

/// The characters Windows-1252 puts in 0x80–0x9F, where Latin-1 has control codes.
const CP1252_EXTRAS: &str = "€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ";

/// Whether a built-in PDF font (WinAnsiEncoding) can draw `c`.
pub(crate) fn in_win1252(c: char) -> bool {
    matches!(c, ' '..='~' | '\u{A1}'..='\u{AC}' | '\u{AE}'..='\u{FF}') || CP1252_EXTRAS.contains(c)
}

/// `text` with only characters the built-in fonts can draw.
///
/// Text is composed first (NFC), so a decomposed `e` + combining acute is still `é`. A character
/// outside Windows-1252 becomes its base letter when it has one that is inside (`ő` → `o`,
/// `Ş` → `S`), else `?`; no-break spaces and line breaks become spaces, soft hyphens vanish.
/// Nothing here fails: whatever a buyer typed, the receipt renders.
pub(crate) fn to_win1252(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.nfc() {
        match c {
            c if in_win1252(c) => out.push(c),
            '\u{AD}' | '\u{200B}'..='\u{200D}' | '\u{2060}' | '\u{FEFF}' => {}
            '\u{A0}' | '\t' | '\n' | '\r' | '\u{2000}'..='\u{200A}' | '\u{202F}' => out.push(' '),
            '\u{2010}'..='\u{2012}' | '\u{2212}' => out.push('-'),
            c => {
                let base: String = c.nfd().filter(|d| !is_combining_mark(*d)).collect();
                if !base.is_empty() && base.chars().all(in_win1252) {
                    out.push_str(&base);
                } else {
                    out.push('?');
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spanish_survives_untouched() {
        let spanish = "¡Hola! ¿Qué tal? José Núñez, Avenida Bolívar, Perú, €5, “citas” — ok";
        assert_eq!(to_win1252(spanish), spanish);
    }

    #[test]
    fn decomposed_accents_are_composed() {
        assert_eq!(to_win1252("Jose\u{301} Mun\u{303}oz"), "José Muñoz");
    }

    #[test]
    fn other_scripts_fall_back_to_their_base_letter_or_a_question_mark() {
        assert_eq!(to_win1252("Łódź Şahin Dvořák"), "?ódz Sahin Dvorák");
        assert_eq!(to_win1252("李雷 🎉"), "?? ?");
        assert_eq!(to_win1252("a\u{A0}b\u{AD}c\td\u{0}"), "a bc d?");
    }

    #[test]
    fn every_kept_character_is_one_windows_1252_byte() {
        let kept = (0..=0x2FFF_u32)
            .filter_map(char::from_u32)
            .filter(|c| in_win1252(*c))
            .count();
        // 95 printable ASCII + 94 Latin-1 (0xA1–0xFF less the soft hyphen) + 27 extras.
        assert_eq!(kept, 95 + 94 + 27);
    }
}

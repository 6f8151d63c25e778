//! PDF documents (the receipt, the draw's certificate) laid out with genpdf on embedded Unicode
//! fonts cut to the glyphs each draws.

use std::cell::RefCell;
use std::collections::BTreeSet;
use std::sync::Arc;

use anyhow::Context as _;
use genpdf::elements::{Break, LinearLayout, PaddedElement, Paragraph, TableLayout};
use genpdf::fonts::{Font, FontCache, FontData, FontFamily};
use genpdf::render::Area;
use genpdf::style::{Color, Style, StyledString};
use genpdf::{Alignment, Context, Element, Margins, Mm, PageDecorator, Position, RenderResult};
use printpdf::BuiltinFont;
use rifa_domain::purchase::Purchase;
use rifa_ports::outbound::{ReceiptContext, ReceiptRenderer};

use crate::fonts::{Face, Faces};
use crate::text::for_page;
use crate::view::{Field, NoticeKind, ReceiptView};

pub(crate) const INK: Color = Color::Rgb(24, 24, 27);
pub(crate) const MUTED: Color = Color::Rgb(100, 100, 110);
const RULE: Color = Color::Rgb(200, 200, 206);
const WARNING: Color = Color::Rgb(185, 28, 28);
pub(crate) const ACCENT: Color = Color::Rgb(21, 128, 61);

/// A4 less the side margins below.
const PAGE_MARGIN_X: f64 = 16.0;
pub(crate) const CONTENT_WIDTH: f64 = 210.0 - 2.0 * PAGE_MARGIN_X;
/// The gap between the buyer and the payment columns, taken from the buyer's half.
const COLUMN_GAP: f64 = 8.0;
/// What text may fill in either column (the narrower, the buyer's).
const COLUMN_WIDTH: f64 = CONTENT_WIDTH / 2.0 - COLUMN_GAP;
/// Text narrower than its box by this much never reaches genpdf's edge cases.
const SAFETY: f64 = 2.0;
/// Drawn on every receipt outside the typesetter: ticket numbers and page numbers.
const DIGITS: &str = "0123456789";

/// Renders purchase receipts as PDF with genpdf (see the crate documentation for the choices).
///
/// Holds the shipped fonts, read once; cheap to share, `render` may run on many threads at once.
#[derive(Clone)]
pub struct GenPdfReceipts {
    faces: Arc<Faces>,
    /// The whole fonts, only to measure text in the first pass (never embedded).
    measuring: Arc<(FontFamily<FontData>, FontFamily<FontData>)>,
}

impl std::fmt::Debug for GenPdfReceipts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GenPdfReceipts").finish_non_exhaustive()
    }
}

impl GenPdfReceipts {
    /// Reads the fonts compiled into the binary; nothing is read from disk.
    ///
    /// # Errors
    /// Only if the shipped font files were corrupted at build time.
    pub fn new() -> anyhow::Result<Self> {
        let faces = Faces::load()?;
        // Marked built-in so that nothing would be embedded; these are only measured with.
        let measuring = |face: &Face| {
            FontData::new(face.bytes().to_vec(), Some(BuiltinFont::Helvetica))
                .context("failed to read a receipt font")
        };
        let main = FontFamily {
            regular: measuring(&faces.regular)?,
            bold: measuring(&faces.bold)?,
            italic: measuring(&faces.regular)?,
            bold_italic: measuring(&faces.bold)?,
        };
        let cjk = measuring(&faces.cjk)?;
        let cjk = FontFamily {
            regular: cjk.clone(),
            bold: cjk.clone(),
            italic: cjk.clone(),
            bold_italic: cjk,
        };
        Ok(Self {
            faces: Arc::new(faces),
            measuring: Arc::new((main, cjk)),
        })
    }

    /// A document on the subset fonts, and its CJK family when the receipt draws CJK.
    fn document(
        &self,
        drawn: &BTreeSet<char>,
    ) -> anyhow::Result<(genpdf::Document, Option<FontFamily<Font>>)> {
        let (cjk_chars, main_chars): (BTreeSet<char>, BTreeSet<char>) =
            drawn.iter().partition(|c| self.faces.needs_fallback(**c));
        let regular = self.faces.regular.subset(&main_chars)?;
        let bold = self.faces.bold.subset(&main_chars)?;
        let embedded = |bytes: Vec<u8>| {
            FontData::new(bytes, None).context("failed to read a subset receipt font")
        };
        // Italics are never drawn; naming built-in fonts for them keeps them out of the file.
        let unused = |bytes: &[u8], builtin| {
            FontData::new(bytes.to_vec(), Some(builtin))
                .context("failed to read a subset receipt font")
        };
        let mut doc = genpdf::Document::new(FontFamily {
            italic: unused(&regular, BuiltinFont::HelveticaOblique)?,
            bold_italic: unused(&bold, BuiltinFont::HelveticaBoldOblique)?,
            regular: embedded(regular)?,
            bold: embedded(bold)?,
        });
        if cjk_chars.is_empty() {
            return Ok((doc, None));
        }
        let cjk = self.faces.cjk.subset(&cjk_chars)?;
        let family = doc.add_font_family(FontFamily {
            bold: unused(&cjk, BuiltinFont::Helvetica)?,
            italic: unused(&cjk, BuiltinFont::Helvetica)?,
            bold_italic: unused(&cjk, BuiltinFont::Helvetica)?,
            regular: embedded(cjk)?,
        });
        // Droid Sans Fallback has no bold: bold CJK text is drawn regular.
        Ok((doc, Some(single_face(family.regular))))
    }
}

fn single_face(font: Font) -> FontFamily<Font> {
    FontFamily {
        regular: font,
        bold: font,
        italic: font,
        bold_italic: font,
    }
}

impl GenPdfReceipts {
    /// A document laid out by `layout`, rendered in two passes: once on the whole fonts only
    /// to learn which characters it draws, then on fonts cut down to them. Every page carries
    /// `footer` and its number after `page_label`.
    pub(crate) fn typeset(
        &self,
        title: String,
        footer: &str,
        page_label: &str,
        layout: impl Fn(&Typesetter<'_>) -> anyhow::Result<LinearLayout>,
    ) -> anyhow::Result<Vec<u8>> {
        let drawn = {
            let (main, cjk) = &*self.measuring;
            let mut doc = genpdf::Document::new(main.clone());
            let cjk = single_face(doc.add_font_family(cjk.clone()).regular);
            let t = Typesetter::new(&self.faces, doc.font_cache(), Some(cjk));
            layout(&t)?;
            t.runs(&t.page_text(footer), Style::new());
            t.into_drawn([page_label, DIGITS])
        };

        let (mut doc, cjk) = self.document(&drawn)?;
        doc.set_title(title);
        doc.set_minimal_conformance();
        doc.set_paper_size(genpdf::PaperSize::A4);
        doc.set_font_size(10);
        doc.set_line_spacing(1.25);
        let t = Typesetter::new(&self.faces, doc.font_cache(), cjk);
        let body = layout(&t)?;
        let footer = t.runs(&t.page_text(footer), Style::new());
        drop(t);
        doc.set_page_decorator(DocumentPages {
            page: 0,
            footer,
            page_label: page_label.to_owned(),
        });
        doc.push(body);
        let mut bytes = Vec::with_capacity(64 * 1024);
        doc.render(&mut bytes).context("failed to render the PDF")?;
        compress(&bytes)
    }
}

impl ReceiptRenderer for GenPdfReceipts {
    #[tracing::instrument(name = "pdf.render", skip_all, fields(purchase.id = purchase.id.get()))]
    fn render(&self, purchase: &Purchase, context: &ReceiptContext) -> anyhow::Result<Vec<u8>> {
        let view = ReceiptView::new(purchase, context);
        let footer = format!(
            "{}  ·  {} {}",
            view.company, view.labels.document_title, view.reference
        );
        self.typeset(
            format!("{} {}", view.labels.document_title, view.reference),
            &footer,
            &view.labels.page,
            |t| layout(&view, t),
        )
    }
}

/// The PDF with its page contents deflated. printpdf 0.3 writes page contents uncompressed (even
/// in release builds), and they are most of a receipt's weight: 5,000 numbers take 440 KB raw
/// and 31 KB deflated.
fn compress(pdf: &[u8]) -> anyhow::Result<Vec<u8>> {
    let mut doc = lopdf::Document::load_mem(pdf).context("failed to read back the receipt PDF")?;
    doc.compress();
    let mut out = Vec::with_capacity(pdf.len() / 4);
    doc.save_to(&mut out)
        .context("failed to write the compressed receipt PDF")?;
    Ok(out)
}

/// The whole receipt as one vertical flow; genpdf continues it on new pages as needed.
fn layout(view: &ReceiptView, t: &Typesetter<'_>) -> anyhow::Result<LinearLayout> {
    let labels = view.labels;
    let mut body = LinearLayout::vertical();

    // Header: company on the left, what this is and its reference on the right.
    let mut header = TableLayout::new(vec![3, 2]);
    let title_column = LinearLayout::vertical()
        .element(
            t.para(
                &labels.document_title,
                Style::new().bold().with_font_size(12),
                60.0,
            )
            .aligned(Alignment::Right),
        )
        .element(
            t.para(&view.reference, muted(10), 60.0)
                .aligned(Alignment::Right),
        );
    let row = header
        .row()
        .element(t.para(&view.company, Style::new().bold().with_font_size(18), 100.0))
        .element(title_column);
    row.push().context("failed to lay out the receipt")?;
    body.push(header);
    body.push(Rule::new(5.0));

    if let Some(notice) = view.notice.filter(|n| n.kind == NoticeKind::Warning) {
        body.push(t.para(
            notice.text,
            Style::new().bold().with_color(WARNING),
            CONTENT_WIDTH,
        ));
        body.push(Break::new(0.6));
    }

    body.push(t.para(&labels.raffle.to_uppercase(), muted(8), CONTENT_WIDTH));
    body.push(t.para(
        &view.raffle_title,
        Style::new().bold().with_font_size(14),
        CONTENT_WIDTH,
    ));
    body.push(Break::new(0.8));

    // Buyer and payment side by side.
    let mut buyer = LinearLayout::vertical().element(section_heading(t, &labels.buyer));
    for field in &view.buyer {
        buyer.push(field_block(t, field));
    }
    let mut payment = LinearLayout::vertical().element(section_heading(t, &labels.payment));
    for field in &view.payment {
        payment.push(field_block(t, field));
    }
    payment.push(t.para(&labels.total.to_uppercase(), muted(8), COLUMN_WIDTH));
    payment.push(t.para(
        &view.total,
        Style::new().bold().with_font_size(15),
        COLUMN_WIDTH,
    ));
    if let Some(conversion) = &view.conversion {
        payment.push(Break::new(0.3));
        payment.push(t.para(&conversion.label.to_uppercase(), muted(8), COLUMN_WIDTH));
        payment.push(t.para(
            &conversion.amount,
            Style::new().bold().with_font_size(12).with_color(ACCENT),
            COLUMN_WIDTH,
        ));
        payment.push(t.para(&conversion.rate_line, muted(9), COLUMN_WIDTH));
    }
    let mut columns = TableLayout::new(vec![1, 1]);
    let row = columns
        .row()
        .element(PaddedElement::new(
            buyer,
            Margins::trbl(0, COLUMN_GAP, 0, 0),
        ))
        .element(payment);
    row.push().context("failed to lay out the receipt")?;
    body.push(columns);

    if let Some(notice) = view.notice.filter(|n| n.kind == NoticeKind::Info) {
        body.push(Break::new(0.6));
        body.push(t.para(notice.text, muted(9), CONTENT_WIDTH));
    }

    body.push(Rule::new(7.0));
    body.push(t.para(
        &view.tickets_heading,
        Style::new().bold().with_font_size(12),
        CONTENT_WIDTH,
    ));
    body.push(Break::new(0.4));
    body.push(NumberGrid::new(view.numbers.clone()));
    body.push(Rule::new(7.0));
    body.push(t.para(&view.generated, muted(8), CONTENT_WIDTH));
    Ok(body)
}

pub(crate) fn muted(size: u8) -> Style {
    Style::new().with_font_size(size).with_color(MUTED)
}

pub(crate) fn section_heading(t: &Typesetter<'_>, text: &str) -> impl Element + use<> {
    PaddedElement::new(
        t.para(
            &text.to_uppercase(),
            Style::new().bold().with_font_size(9).with_color(INK),
            COLUMN_WIDTH,
        ),
        Margins::trbl(0, 0, 1.5, 0),
    )
}

fn field_block(t: &Typesetter<'_>, field: &Field) -> impl Element + use<> {
    PaddedElement::new(
        LinearLayout::vertical()
            .element(t.para(field.label, muted(8), COLUMN_WIDTH))
            .element(t.para(&field.value, Style::new().with_color(INK), COLUMN_WIDTH)),
        Margins::trbl(0, 0, 1.8, 0),
    )
}

/// Builds paragraphs of page text (see [`for_page`]) whose words fit their box, each character
/// in a face that has it, and keeps note of every character it hands out.
pub(crate) struct Typesetter<'a> {
    faces: &'a Faces,
    cache: &'a FontCache,
    /// The CJK family, when there is one.
    cjk: Option<FontFamily<Font>>,
    drawn: RefCell<BTreeSet<char>>,
}

impl<'a> Typesetter<'a> {
    fn new(faces: &'a Faces, cache: &'a FontCache, cjk: Option<FontFamily<Font>>) -> Self {
        Self {
            faces,
            cache,
            cjk,
            drawn: RefCell::new(BTreeSet::new()),
        }
    }

    /// Every character handed out, plus those of `more`.
    fn into_drawn<'s>(self, more: impl IntoIterator<Item = &'s str>) -> BTreeSet<char> {
        let mut drawn = self.drawn.into_inner();
        drawn.extend(more.into_iter().flat_map(str::chars));
        drawn
    }

    /// A paragraph of `text` in `style`, for a box `max_width` mm wide.
    pub(crate) fn para(&self, text: &str, style: Style, max_width: f64) -> Paragraph {
        let mut paragraph = Paragraph::default();
        let text = self.fit_words(&self.page_text(text), style, Mm::from(max_width - SAFETY));
        for run in self.runs(&text, style) {
            paragraph.push(run);
        }
        paragraph
    }

    /// `text` as the page draws it (see [`for_page`]).
    fn page_text(&self, text: &str) -> String {
        for_page(text, |c| self.faces.can_draw(c))
    }

    /// Page text cut into runs of one face each (per-run font fallback): a name mixing Latin
    /// and CJK is drawn in DejaVu and Droid in turn.
    fn runs(&self, text: &str, style: Style) -> Vec<StyledString> {
        self.drawn.borrow_mut().extend(text.chars());
        let mut runs: Vec<StyledString> = Vec::new();
        for c in text.chars() {
            let style = self.style_for(c, style);
            match runs.last_mut() {
                Some(run) if run.style == style => run.s.push(c),
                _ => runs.push(StyledString::new(c.to_string(), style)),
            }
        }
        runs
    }

    fn style_for(&self, c: char, style: Style) -> Style {
        match self.cjk {
            Some(cjk) if self.faces.needs_fallback(c) => style.with_font_family(cjk),
            _ => style,
        }
    }

    fn width(&self, text: &str, style: Style) -> Mm {
        text.chars()
            .map(|c| self.style_for(c, style).char_width(self.cache, c))
            .fold(Mm::from(0.0), |sum, w| sum + w)
    }

    /// genpdf wraps only at spaces and silently drops the rest of a paragraph whose word is wider
    /// than its box (a 60-character e-mail address in a half-page column); such words are cut
    /// into pieces that fit, so the paragraph wraps between them instead.
    fn fit_words(&self, text: &str, style: Style, max_width: Mm) -> String {
        let space = style.char_width(self.cache, ' ');
        let mut out = String::with_capacity(text.len());
        for (i, word) in text.split(' ').enumerate() {
            if i > 0 {
                out.push(' ');
            }
            if self.width(word, style) + space <= max_width {
                out.push_str(word);
                continue;
            }
            let mut width = Mm::from(0.0);
            for c in word.chars() {
                let w = self.style_for(c, style).char_width(self.cache, c);
                if width > Mm::from(0.0) && width + w + space > max_width {
                    out.push(' ');
                    width = Mm::from(0.0);
                }
                out.push(c);
                width += w;
            }
        }
        out
    }
}

/// A thin horizontal line with some air above and below.
pub(crate) struct Rule {
    height: Mm,
}

impl Rule {
    pub(crate) fn new(height_mm: f64) -> Self {
        Self {
            height: Mm::from(height_mm),
        }
    }
}

impl Element for Rule {
    fn render(
        &mut self,
        _context: &Context,
        area: Area<'_>,
        _style: Style,
    ) -> Result<RenderResult, genpdf::error::Error> {
        let size = area.size();
        if size.height < self.height {
            // Not even the line fits: it is not worth a page of its own, so it is dropped.
            return Ok(RenderResult::default());
        }
        let y = self.height / 2.0;
        area.draw_line(
            vec![Position::new(0, y), Position::new(size.width, y)],
            Style::new().with_color(RULE),
        );
        Ok(RenderResult {
            size: genpdf::Size::new(size.width, self.height),
            has_more: false,
        })
    }
}

/// Every ticket number in a grid of equal columns, continued across as many pages as needed.
///
/// Numbers run left to right, then down, each placed at its own cell so columns stay exact (a
/// row drawn as one string would drift: Helvetica kerns digit pairs such as `11`). The many
/// small text objects this makes repeat themselves and deflate well (see [`compress`]).
struct NumberGrid {
    numbers: Vec<String>,
    next: usize,
}

impl NumberGrid {
    const FONT_SIZE: u8 = 9;
    /// The least space between two columns.
    const GAP_MM: f64 = 4.0;

    fn new(numbers: Vec<String>) -> Self {
        Self { numbers, next: 0 }
    }

    /// How many numbers fit in a row of `width`.
    fn columns(&self, cache: &FontCache, style: Style, width: Mm) -> usize {
        let widest = self
            .numbers
            .iter()
            .map(|n| style.str_width(cache, n))
            .fold(Mm::from(0.0), Mm::max);
        let cell = (f64::from(widest) + Self::GAP_MM).max(1.0);
        whole((f64::from(width) + Self::GAP_MM) / cell).max(1)
    }
}

/// The whole part of a finite, non-negative figure (0 for anything else).
fn whole(value: f64) -> usize {
    if value.is_finite() && value >= 0.0 {
        #[expect(
            clippy::cast_possible_truncation,
            clippy::cast_sign_loss,
            reason = "checked finite and non-negative; far below usize::MAX here"
        )]
        let whole = value.floor() as usize;
        whole
    } else {
        0
    }
}

impl Element for NumberGrid {
    fn render(
        &mut self,
        context: &Context,
        area: Area<'_>,
        style: Style,
    ) -> Result<RenderResult, genpdf::error::Error> {
        let style = style.with_font_size(Self::FONT_SIZE);
        let cache = &context.font_cache;
        let size = area.size();
        let columns = self.columns(cache, style, size.width);
        let line_height = style.line_height(cache);
        let glyph_height = style.font(cache).glyph_height(Self::FONT_SIZE);
        let remaining = self.numbers.len() - self.next;
        let fitting_rows = if size.height < glyph_height {
            0
        } else {
            whole(f64::from(size.height - glyph_height) / f64::from(line_height)) + 1
        };
        let rows = fitting_rows.min(remaining.div_ceil(columns));
        if rows == 0 {
            return Ok(RenderResult {
                size: genpdf::Size::new(0, 0),
                has_more: remaining > 0,
            });
        }
        let page = &self.numbers[self.next..(self.next + rows * columns).min(self.numbers.len())];
        #[expect(
            clippy::cast_precision_loss,
            reason = "a column count of a page, far below 2^52"
        )]
        let cell = f64::from(size.width) / columns as f64;
        for (i, number) in page.iter().enumerate() {
            #[expect(clippy::cast_precision_loss, reason = "cells of a page")]
            let position = Position::new(
                cell * (i % columns) as f64,
                line_height * (i / columns) as f64,
            );
            if !area.print_str(cache, position, style, number)? {
                // Only if a row were miscounted (a row fails whole, at its first cell).
                self.next += i;
                return Ok(RenderResult {
                    size: genpdf::Size::new(size.width, position.y),
                    has_more: true,
                });
            }
        }
        self.next += page.len();
        #[expect(clippy::cast_precision_loss, reason = "a row count of a page")]
        let height = line_height * rows as f64;
        Ok(RenderResult {
            size: genpdf::Size::new(size.width, height),
            has_more: self.next < self.numbers.len(),
        })
    }
}

/// Margins on every page, and a footer naming the document and the page, so a page that
/// strays from the others still says whose it is.
struct DocumentPages {
    page: usize,
    /// Runs of one face each, with only their font family set.
    footer: Vec<StyledString>,
    page_label: String,
}

impl PageDecorator for DocumentPages {
    fn decorate_page<'a>(
        &mut self,
        context: &Context,
        mut area: Area<'a>,
        style: Style,
    ) -> Result<Area<'a>, genpdf::error::Error> {
        self.page += 1;
        area.add_margins(Margins::trbl(14, PAGE_MARGIN_X, 10, PAGE_MARGIN_X));
        let cache = &context.font_cache;
        let small = style.with_font_size(8).with_color(MUTED);
        let size = area.size();
        let line_height = small.line_height(cache);
        let footer_y = size.height - line_height;
        let rule_y = footer_y - Mm::from(2.0);
        area.draw_line(
            vec![Position::new(0, rule_y), Position::new(size.width, rule_y)],
            Style::new().with_color(RULE),
        );
        let mut x = Mm::from(0.0);
        for run in &self.footer {
            let style = small.and(run.style);
            area.print_str(cache, Position::new(x, footer_y), style, &run.s)?;
            x += style.str_width(cache, &run.s);
        }
        let page = format!("{} {}", self.page_label, self.page);
        let page_width = small.str_width(cache, &page);
        area.print_str(
            cache,
            Position::new(size.width - page_width, footer_y),
            small,
            page,
        )?;
        area.set_height(rule_y - Mm::from(3.0));
        Ok(area)
    }
}

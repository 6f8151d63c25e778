//! The PDF receipt, laid out with genpdf on the PDF viewer's built-in Helvetica.

use anyhow::Context as _;
use genpdf::elements::{Break, LinearLayout, PaddedElement, Paragraph, TableLayout};
use genpdf::fonts::{FontCache, FontData, FontFamily};
use genpdf::render::Area;
use genpdf::style::{Color, Style, StyledString};
use genpdf::{Alignment, Context, Element, Margins, Mm, PageDecorator, Position, RenderResult};
use printpdf::BuiltinFont;
use rifa_domain::purchase::Purchase;
use rifa_ports::outbound::{ReceiptContext, ReceiptRenderer};

use crate::text::to_win1252;
use crate::view::{Field, NoticeKind, ReceiptView};

/// Metrics of Liberation Sans 2 (SIL OFL 1.1, see `fonts/OFL.txt`), which is metrically identical
/// to Helvetica. Only the metrics are used: the PDF names the viewer's built-in Helvetica and
/// embeds nothing. Oblique Helvetica has the same advance widths as upright Helvetica, so the two
/// upright files serve all four styles.
const SANS_REGULAR: &[u8] = include_bytes!("../fonts/LiberationSans-Regular.ttf");
const SANS_BOLD: &[u8] = include_bytes!("../fonts/LiberationSans-Bold.ttf");

const INK: Color = Color::Rgb(24, 24, 27);
const MUTED: Color = Color::Rgb(100, 100, 110);
const RULE: Color = Color::Rgb(200, 200, 206);
const WARNING: Color = Color::Rgb(185, 28, 28);
const ACCENT: Color = Color::Rgb(21, 128, 61);

/// A4 less the side margins below.
const PAGE_MARGIN_X: f64 = 16.0;
const CONTENT_WIDTH: f64 = 210.0 - 2.0 * PAGE_MARGIN_X;
/// The gap between the buyer and the payment columns, taken from the buyer's half.
const COLUMN_GAP: f64 = 8.0;
/// What text may fill in either column (the narrower, the buyer's).
const COLUMN_WIDTH: f64 = CONTENT_WIDTH / 2.0 - COLUMN_GAP;
/// Text narrower than its box by this much never reaches genpdf's edge cases.
const SAFETY: f64 = 2.0;

/// Renders purchase receipts as PDF with genpdf (see the crate documentation for the choices).
///
/// Holds the parsed font metrics; cheap to share, `render` may run on many threads at once.
#[derive(Clone)]
pub struct GenPdfReceipts {
    fonts: FontFamily<FontData>,
}

impl std::fmt::Debug for GenPdfReceipts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GenPdfReceipts").finish_non_exhaustive()
    }
}

impl GenPdfReceipts {
    /// Parses the font metrics compiled into the binary; nothing is read from disk.
    ///
    /// # Errors
    /// Only if the shipped font files were corrupted at build time.
    pub fn new() -> anyhow::Result<Self> {
        let font = |data: &[u8], builtin| {
            FontData::new(data.to_vec(), Some(builtin)).context("failed to read the receipt font")
        };
        Ok(Self {
            fonts: FontFamily {
                regular: font(SANS_REGULAR, BuiltinFont::Helvetica)?,
                bold: font(SANS_BOLD, BuiltinFont::HelveticaBold)?,
                italic: font(SANS_REGULAR, BuiltinFont::HelveticaOblique)?,
                bold_italic: font(SANS_BOLD, BuiltinFont::HelveticaBoldOblique)?,
            },
        })
    }
}

impl ReceiptRenderer for GenPdfReceipts {
    fn render(&self, purchase: &Purchase, context: &ReceiptContext) -> anyhow::Result<Vec<u8>> {
        let view = ReceiptView::new(purchase, context);
        let mut doc = genpdf::Document::new(self.fonts.clone());
        doc.set_title(to_win1252(&format!(
            "{} {}",
            view.labels.document_title, view.reference
        )));
        doc.set_minimal_conformance();
        doc.set_paper_size(genpdf::PaperSize::A4);
        doc.set_font_size(10);
        doc.set_line_spacing(1.25);
        doc.set_page_decorator(ReceiptPages {
            page: 0,
            footer: to_win1252(&format!(
                "{}  ·  {} {}",
                view.company, view.labels.document_title, view.reference
            )),
            page_label: view.labels.page,
        });
        let body = layout(&view, doc.font_cache())?;
        doc.push(body);
        let mut bytes = Vec::with_capacity(64 * 1024);
        doc.render(&mut bytes)
            .context("failed to render the receipt PDF")?;
        compress(&bytes)
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
fn layout(view: &ReceiptView, cache: &FontCache) -> anyhow::Result<LinearLayout> {
    let t = Typesetter { cache };
    let labels = view.labels;
    let mut body = LinearLayout::vertical();

    // Header: company on the left, what this is and its reference on the right.
    let mut header = TableLayout::new(vec![3, 2]);
    let title_column = LinearLayout::vertical()
        .element(
            t.para(
                labels.document_title,
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
    let mut buyer = LinearLayout::vertical().element(section_heading(&t, labels.buyer));
    for field in &view.buyer {
        buyer.push(field_block(&t, field));
    }
    let mut payment = LinearLayout::vertical().element(section_heading(&t, labels.payment));
    for field in &view.payment {
        payment.push(field_block(&t, field));
    }
    payment.push(t.para(&labels.total.to_uppercase(), muted(8), COLUMN_WIDTH));
    payment.push(t.para(
        &view.total,
        Style::new().bold().with_font_size(15),
        COLUMN_WIDTH,
    ));
    if let Some(conversion) = &view.conversion {
        payment.push(Break::new(0.3));
        payment.push(t.para(&labels.converted.to_uppercase(), muted(8), COLUMN_WIDTH));
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

fn muted(size: u8) -> Style {
    Style::new().with_font_size(size).with_color(MUTED)
}

fn section_heading(t: &Typesetter<'_>, text: &str) -> impl Element + use<> {
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

/// Builds paragraphs whose text the built-in fonts can draw and whose words fit their box.
struct Typesetter<'a> {
    cache: &'a FontCache,
}

impl Typesetter<'_> {
    /// A paragraph of `text` in `style`, for a box `max_width` mm wide.
    fn para(&self, text: &str, style: Style, max_width: f64) -> Paragraph {
        let text = self.fit_words(&to_win1252(text), style, Mm::from(max_width - SAFETY));
        Paragraph::new(StyledString::new(text, style))
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
            if style.str_width(self.cache, word) + space <= max_width {
                out.push_str(word);
                continue;
            }
            let mut width = Mm::from(0.0);
            for c in word.chars() {
                let w = style.char_width(self.cache, c);
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
struct Rule {
    height: Mm,
}

impl Rule {
    fn new(height_mm: f64) -> Self {
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

/// Margins on every page, and a footer naming the receipt and the page, so a page that strays
/// from the others still says whose it is.
struct ReceiptPages {
    page: usize,
    footer: String,
    page_label: &'static str,
}

impl PageDecorator for ReceiptPages {
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
        area.print_str(cache, Position::new(0, footer_y), small, &self.footer)?;
        let page = format!("{} {}", self.page_label, self.page);
        let page = to_win1252(&page);
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

//! The "Acta de sorteo" (decision 0020): one page per prize with what was committed to, the
//! public result, each step of the published rule and the winning number, worded from the
//! catalogue in the reader's language. Everything on it is public: the winner appears as the
//! public sees them (first name, initial, country).

use genpdf::elements::{Break, LinearLayout};
use genpdf::style::Style;
use rifa_domain::draw::ledger::to_hex;
use rifa_domain::draw::prize::{PrizeResult, PrizeSource};
use rifa_domain::ticket::{TicketNumber, display_number};
use rifa_ports::outbound::{CertificateRenderer, DrawCertificate};
use rifa_text::format::format_instant;
use rifa_text::{Message, draw_step, text};

use crate::pdf::{
    ACCENT, CONTENT_WIDTH, GenPdfReceipts, INK, Rule, Typesetter, muted, section_heading,
};
use crate::view::country_label;

/// One labelled value of the certificate.
struct Line {
    label: String,
    value: String,
}

/// The certificate worded in its language, ready to lay out.
struct CertificateView {
    title: String,
    company: String,
    raffle: String,
    prize: String,
    /// The commitment, the result's source and the rule's steps, each under its heading.
    commitment: (String, Vec<Line>),
    source: (String, Vec<Line>),
    steps: (String, Vec<String>),
    winning_label: String,
    winning_number: String,
    winner: Option<String>,
    verify: String,
}

fn line(key: &'static str, value: String, c: &DrawCertificate) -> Line {
    Line {
        label: text(key, c.lang),
        value,
    }
}

impl CertificateView {
    fn new(c: &DrawCertificate) -> Self {
        let lang = c.lang;
        let number = |n: u32| display_number(TicketNumber::from_stored(n), c.max_tickets);
        let mut source = match &c.source {
            PrizeSource::Lottery {
                lottery_name,
                draw_date,
                draw_time,
                time_zone,
                source_url,
                ..
            } => vec![
                line("cert-lottery", lottery_name.clone(), c),
                line(
                    "cert-lottery_date",
                    format!(
                        "{} {} ({})",
                        draw_date.format("%d/%m/%Y"),
                        draw_time.format("%H:%M"),
                        time_zone.name()
                    ),
                    c,
                ),
                line("cert-source_url", source_url.clone(), c),
            ],
            PrizeSource::Beacon { round } => vec![
                line("cert-beacon", "drand quicknet".to_owned(), c),
                line("cert-beacon_round", round.to_string(), c),
            ],
        };
        source.extend(match &c.draw.result {
            PrizeResult::Lottery {
                result,
                published_on,
                official_url,
            } => vec![
                line("cert-result", result.clone(), c),
                line(
                    "cert-published_on",
                    published_on.format("%d/%m/%Y").to_string(),
                    c,
                ),
                line("cert-official_url", official_url.clone(), c),
            ],
            PrizeResult::Beacon {
                round,
                randomness,
                signature,
            } => {
                // A lottery prize decided by its fallback round names that round too.
                let fallback = matches!(c.source, PrizeSource::Lottery { .. }).then(|| {
                    [
                        line("cert-beacon", "drand quicknet".to_owned(), c),
                        line("cert-beacon_round", round.to_string(), c),
                    ]
                });
                fallback
                    .into_iter()
                    .flatten()
                    .chain([
                        line("cert-beacon_signature", to_hex(signature), c),
                        line("cert-beacon_randomness", to_hex(randomness), c),
                    ])
                    .collect()
            }
        });
        Self {
            title: text("cert-title", lang),
            company: c.company_name.clone(),
            raffle: c.raffle_title.clone(),
            prize: Message::new("cert-prize")
                .count("position", c.position)
                .text("title", c.prize_title.as_str())
                .render(lang),
            commitment: (
                text("cert-heading-commitment", lang),
                vec![
                    line("cert-root", to_hex(&c.commitment.root), c),
                    line("cert-size", c.commitment.size.to_string(), c),
                    line(
                        "cert-frozen_at",
                        format_instant(c.commitment.frozen_at, lang),
                        c,
                    ),
                    line("cert-drawn_at", format_instant(c.draw.drawn_at, lang), c),
                ],
            ),
            source: (text("cert-heading-source", lang), source),
            steps: (
                text("cert-heading-rule", lang),
                c.draw
                    .steps
                    .iter()
                    .enumerate()
                    .map(|(i, step)| {
                        format!("{}. {}", i + 1, draw_step(step, c.max_tickets).render(lang))
                    })
                    .collect(),
            ),
            winning_label: text("cert-winning_number", lang),
            winning_number: c
                .draw
                .winning_number
                .map_or_else(|| text("cert-no_winner", lang), number),
            winner: c.winner.as_ref().map(|(name, country)| {
                Message::new("cert-winner")
                    .text("name", name.as_str())
                    .text("country", country_label(country, lang))
                    .render(lang)
            }),
            verify: Message::new("cert-verify")
                .text("link", c.verify_link.as_str())
                .render(lang),
        }
    }
}

fn layout(view: &CertificateView, t: &Typesetter<'_>) -> LinearLayout {
    let mut body = LinearLayout::vertical();
    body.push(t.para(
        &view.company,
        Style::new().bold().with_font_size(16),
        CONTENT_WIDTH,
    ));
    body.push(t.para(
        &view.title.to_uppercase(),
        Style::new().bold().with_font_size(13).with_color(ACCENT),
        CONTENT_WIDTH,
    ));
    body.push(Rule::new(5.0));
    body.push(t.para(
        &view.raffle,
        Style::new().bold().with_font_size(14),
        CONTENT_WIDTH,
    ));
    body.push(t.para(
        &view.prize,
        Style::new().with_font_size(11).with_color(INK),
        CONTENT_WIDTH,
    ));
    body.push(Break::new(0.8));
    for (heading, lines) in [&view.commitment, &view.source] {
        body.push(section_heading(t, heading));
        for Line { label, value } in lines {
            body.push(t.para(label, muted(8), CONTENT_WIDTH));
            body.push(t.para(value, Style::new().with_color(INK), CONTENT_WIDTH));
        }
        body.push(Break::new(0.6));
    }
    body.push(section_heading(t, &view.steps.0));
    for step in &view.steps.1 {
        body.push(t.para(step, Style::new().with_color(INK), CONTENT_WIDTH));
    }
    body.push(Rule::new(6.0));
    body.push(t.para(&view.winning_label.to_uppercase(), muted(8), CONTENT_WIDTH));
    // genpdf places a line by its own size: without air, a large line rides up over a small one.
    body.push(Break::new(1.2));
    body.push(t.para(
        &view.winning_number,
        Style::new().bold().with_font_size(24).with_color(ACCENT),
        CONTENT_WIDTH,
    ));
    if let Some(winner) = &view.winner {
        body.push(t.para(winner, Style::new().with_font_size(11), CONTENT_WIDTH));
    }
    body.push(Rule::new(6.0));
    body.push(t.para(&view.verify, muted(9), CONTENT_WIDTH));
    body
}

impl CertificateRenderer for GenPdfReceipts {
    #[tracing::instrument(name = "pdf.certificate", skip_all, fields(prize.position = certificate.position))]
    fn render_certificate(&self, certificate: &DrawCertificate) -> anyhow::Result<Vec<u8>> {
        let view = CertificateView::new(certificate);
        let footer = format!("{}  ·  {}  ·  {}", view.company, view.title, view.raffle);
        self.typeset(
            format!("{} {}", view.title, view.raffle),
            &footer,
            &text("receipt-page", certificate.lang),
            |t| Ok(layout(&view, t)),
        )
    }
}

#[cfg(test)]
mod tests {
    use chrono::{NaiveDate, NaiveTime, TimeZone as _, Utc};
    use rifa_domain::Lang;
    use rifa_domain::draw::fair::Rule;
    use rifa_domain::draw::prize::DEFAULT_TIME_ZONE;
    use rifa_domain::draw::rule::DrawStep;
    use rifa_ports::{Commitment, PrizeDraw};

    use super::*;

    #[test]
    fn a_lottery_prize_decided_by_its_round_names_the_round_and_why() {
        let at = Utc.with_ymd_and_hms(2030, 1, 18, 2, 0, 0).unwrap();
        let certificate = DrawCertificate {
            company_name: "Rifas Ana".into(),
            lang: Lang::Es,
            raffle_title: "Moto".into(),
            max_tickets: 100,
            commitment: Commitment {
                salt: [1; 32],
                root: [2; 32],
                size: 3,
                frozen_at: at,
                max_tickets: 100,
                rule: Rule::NumberV2,
            },
            position: 1,
            prize_title: "Moto".into(),
            source: PrizeSource::Lottery {
                lottery_name: "Lotería del Táchira".into(),
                draw_date: NaiveDate::from_ymd_opt(2030, 1, 16).unwrap(),
                draw_time: NaiveTime::from_hms_opt(21, 0, 0).unwrap(),
                time_zone: DEFAULT_TIME_ZONE,
                source_url: "https://loteria.example".into(),
                digits: None,
                deadline_hours: 24,
            },
            draw: PrizeDraw {
                source: 1,
                result: PrizeResult::Beacon {
                    round: 67_375_212,
                    randomness: [3; 32],
                    signature: vec![4; 48],
                },
                drawn_number: 46,
                winning_number: Some(46),
                steps: vec![
                    DrawStep::SourceLapsed {
                        source: 0,
                        deadline: "2030-01-18T01:00:00Z".into(),
                    },
                    DrawStep::Wins { number: 46 },
                ],
                drawn_at: at,
                winner: None,
            },
            winner: None,
            verify_link: "https://rifa.example/sorteo/1/verificacion".into(),
        };
        let view = CertificateView::new(&certificate);
        let lines: Vec<(String, String)> = view
            .source
            .1
            .iter()
            .map(|l| (l.label.clone(), l.value.clone()))
            .collect();
        assert!(
            lines.contains(&("Lotería".into(), "Lotería del Táchira".into())),
            "{lines:?}"
        );
        assert!(
            lines.contains(&("Ronda".into(), "67375212".into())),
            "{lines:?}"
        );
        assert!(
            view.steps.1[0].contains("no se registró antes del plazo (2030-01-18T01:00:00Z)"),
            "{:?}",
            view.steps.1
        );
    }
}

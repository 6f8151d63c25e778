//! The operator's brand: colours (HSL, as the theme's CSS variables take them), texts, and the
//! site's contact details, links and marketing figures ([`SiteInfo`]).

use crate::customer::Email;
use crate::validation::{self, FieldError, FieldErrors, TextKind};

/// An HSL colour in the CSS-variable form `"240 9% 3.9%"`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HslColor(String);

impl HslColor {
    /// Accepts `H S% L%` (hue 0–360, saturation and lightness 0–100, decimals allowed) and
    /// stores it with single spaces.
    ///
    /// # Errors
    /// `InvalidHsl`.
    pub fn parse(raw: &str) -> Result<Self, FieldError> {
        let parts: Vec<&str> = raw.split_whitespace().collect();
        let [h, s, l] = parts.as_slice() else {
            return Err(FieldError::InvalidHsl);
        };
        let number = |text: &str, max: f64| {
            !text.is_empty()
                && text.chars().all(|c| c.is_ascii_digit() || c == '.')
                && text.parse::<f64>().is_ok_and(|v| (0.0..=max).contains(&v))
        };
        let percent = |text: &str| text.strip_suffix('%').is_some_and(|n| number(n, 100.0));
        if number(h, 360.0) && percent(s) && percent(l) {
            Ok(Self(format!("{h} {s} {l}")))
        } else {
            Err(FieldError::InvalidHsl)
        }
    }

    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }

    fn known(value: &str) -> Self {
        Self(value.to_owned())
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Branding {
    pub primary_color: HslColor,
    pub secondary_color: HslColor,
    pub accent_color: HslColor,
    pub danger_color: HslColor,
    pub success_color: HslColor,
    pub company_name: String,
    pub description: String,
    pub logo_url: String,
    pub site: SiteInfo,
}

/// What the public site shows about the operator besides the brand: contact, social links, the
/// lottery whose results decide the draws, the how-to videos and the static marketing figures
/// (SPEC §1: text, not computed). Links may be blank: the site then leaves them out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SiteInfo {
    pub contact_email: String,
    pub contact_phone: String,
    pub whatsapp_url: String,
    pub facebook_url: String,
    pub instagram_url: String,
    pub tiktok_url: String,
    pub whatsapp_channel_url: String,
    pub lottery_results_url: String,
    /// How-to-win steps 1 and 2, embedded in the page.
    pub video_urls: [String; 2],
    /// Home: "50.000+ participants", "2M+ in prizes", "25+ countries".
    pub participants: u32,
    pub prizes: String,
    pub countries: u32,
    /// All-raffles page: "$100K+ in prizes", "2.000+ participants", "500+ winners".
    pub raffles_page_prizes: String,
    pub raffles_page_participants: u32,
    pub raffles_page_winners: u32,
}

impl Default for SiteInfo {
    /// The values the site shipped with.
    fn default() -> Self {
        Self {
            contact_email: "soporte@rifa.app".to_owned(),
            contact_phone: "+58 412 555 0199".to_owned(),
            whatsapp_url: "https://wa.me/584125550199".to_owned(),
            facebook_url: "https://www.facebook.com/".to_owned(),
            instagram_url: "https://www.instagram.com/".to_owned(),
            tiktok_url: "https://www.tiktok.com/".to_owned(),
            whatsapp_channel_url: "https://www.whatsapp.com/channel/".to_owned(),
            lottery_results_url: "https://www.loteriadecaracas.com/".to_owned(),
            video_urls: [
                "https://www.youtube-nocookie.com/embed/aqz-KE-bpKQ".to_owned(),
                "https://www.youtube-nocookie.com/embed/ScMzIvxBSi4".to_owned(),
            ],
            participants: 50_000,
            prizes: "2M+".to_owned(),
            countries: 25,
            raffles_page_prizes: "$100K+".to_owned(),
            raffles_page_participants: 2_000,
            raffles_page_winners: 500,
        }
    }
}

/// Changes to [`SiteInfo`]; fields left out keep their value.
#[derive(Debug, Clone, Default)]
pub struct SiteInfoPatch {
    pub contact_email: Option<String>,
    pub contact_phone: Option<String>,
    pub whatsapp_url: Option<String>,
    pub facebook_url: Option<String>,
    pub instagram_url: Option<String>,
    pub tiktok_url: Option<String>,
    pub whatsapp_channel_url: Option<String>,
    pub lottery_results_url: Option<String>,
    pub video_urls: Option<Vec<String>>,
    pub participants: Option<i64>,
    pub prizes: Option<String>,
    pub countries: Option<i64>,
    pub raffles_page_prizes: Option<String>,
    pub raffles_page_participants: Option<i64>,
    pub raffles_page_winners: Option<i64>,
}

/// The most a marketing count may claim.
const MAX_FIGURE: u32 = 1_000_000_000;

/// A web link (`http`/`https`, checked by the shared URL rule) or blank.
fn optional_url(raw: &str) -> Result<String, FieldError> {
    if raw.trim().is_empty() {
        Ok(String::new())
    } else {
        validation::web_url(raw, 2_048)
    }
}

fn figure(raw: i64) -> Result<u32, FieldError> {
    u32::try_from(raw)
        .ok()
        .filter(|n| *n <= MAX_FIGURE)
        .ok_or_else(|| FieldError::OutOfRange {
            min: "0".into(),
            max: MAX_FIGURE.to_string(),
        })
}

impl SiteInfo {
    /// Applies `patch`, recording each bad field in `errors` (a bad field keeps its value).
    fn apply(&mut self, patch: SiteInfoPatch, errors: &mut FieldErrors) {
        if let Some(raw) = patch.contact_email {
            let email = if raw.trim().is_empty() {
                Ok(String::new())
            } else {
                Email::parse(&raw).map(|e| e.as_str().to_owned())
            };
            if let Some(email) = errors.check("contactEmail", email) {
                self.contact_email = email;
            }
        }
        if let Some(phone) = patch.contact_phone.and_then(|raw| {
            errors.check(
                "contactPhone",
                validation::free_text(&raw, TextKind::SingleLine, 40),
            )
        }) {
            self.contact_phone = phone;
        }
        let links = [
            ("whatsappUrl", patch.whatsapp_url, &mut self.whatsapp_url),
            ("facebookUrl", patch.facebook_url, &mut self.facebook_url),
            ("instagramUrl", patch.instagram_url, &mut self.instagram_url),
            ("tiktokUrl", patch.tiktok_url, &mut self.tiktok_url),
            (
                "whatsappChannelUrl",
                patch.whatsapp_channel_url,
                &mut self.whatsapp_channel_url,
            ),
            (
                "lotteryResultsUrl",
                patch.lottery_results_url,
                &mut self.lottery_results_url,
            ),
        ];
        for (field, raw, slot) in links {
            if let Some(url) = raw.and_then(|raw| errors.check(field, optional_url(&raw))) {
                *slot = url;
            }
        }
        if let Some(videos) = patch.video_urls {
            match <[String; 2]>::try_from(videos) {
                Ok(videos) => {
                    let parsed: Vec<Option<String>> = videos
                        .iter()
                        .map(|raw| errors.check("videoUrls", optional_url(raw)))
                        .collect();
                    if let [Some(first), Some(second)] = parsed.as_slice() {
                        self.video_urls = [first.clone(), second.clone()];
                    }
                }
                Err(_) => errors.add(
                    "videoUrls",
                    FieldError::OutOfRange {
                        min: "2".into(),
                        max: "2".into(),
                    },
                ),
            }
        }
        let texts = [
            ("prizes", patch.prizes, &mut self.prizes),
            (
                "rafflesPagePrizes",
                patch.raffles_page_prizes,
                &mut self.raffles_page_prizes,
            ),
        ];
        for (field, raw, slot) in texts {
            if let Some(text) = raw.and_then(|raw| {
                errors.check(
                    field,
                    validation::required_text(&raw, TextKind::SingleLine, 1, 20),
                )
            }) {
                *slot = text;
            }
        }
        let figures = [
            ("participants", patch.participants, &mut self.participants),
            ("countries", patch.countries, &mut self.countries),
            (
                "rafflesPageParticipants",
                patch.raffles_page_participants,
                &mut self.raffles_page_participants,
            ),
            (
                "rafflesPageWinners",
                patch.raffles_page_winners,
                &mut self.raffles_page_winners,
            ),
        ];
        for (field, raw, slot) in figures {
            if let Some(n) = raw.and_then(|raw| errors.check(field, figure(raw))) {
                *slot = n;
            }
        }
    }
}

impl Default for Branding {
    /// The spec's default theme (SPEC §9).
    fn default() -> Self {
        Self {
            primary_color: HslColor::known("240 9% 3.9%"),
            secondary_color: HslColor::known("240 4.8% 95.9%"),
            accent_color: HslColor::known("240 4.8% 95.9%"),
            danger_color: HslColor::known("0 84.2% 60.2%"),
            success_color: HslColor::known("142 76% 36%"),
            company_name: "Rifa".to_owned(),
            description: "Sorteos en línea transparentes y seguros".to_owned(),
            logo_url: String::new(),
            site: SiteInfo::default(),
        }
    }
}

/// The fields an admin sends; any left out keep their current value.
#[derive(Debug, Clone, Default)]
pub struct BrandingPatch {
    pub primary_color: Option<String>,
    pub secondary_color: Option<String>,
    pub accent_color: Option<String>,
    pub danger_color: Option<String>,
    pub success_color: Option<String>,
    pub company_name: Option<String>,
    pub description: Option<String>,
    pub logo_url: Option<String>,
    pub site: SiteInfoPatch,
}

impl Branding {
    /// # Errors
    /// Each bad field.
    pub fn apply(&self, patch: BrandingPatch) -> Result<Self, FieldErrors> {
        let mut errors = FieldErrors::new();
        let mut next = self.clone();
        let colors = [
            ("primaryColor", patch.primary_color, &mut next.primary_color),
            (
                "secondaryColor",
                patch.secondary_color,
                &mut next.secondary_color,
            ),
            ("accentColor", patch.accent_color, &mut next.accent_color),
            ("dangerColor", patch.danger_color, &mut next.danger_color),
            ("successColor", patch.success_color, &mut next.success_color),
        ];
        for (field, raw, slot) in colors {
            if let Some(color) = raw.and_then(|raw| errors.check(field, HslColor::parse(&raw))) {
                *slot = color;
            }
        }
        if let Some(raw) = patch.company_name
            && let Some(name) = errors.check(
                "companyName",
                validation::required_text(&raw, TextKind::SingleLine, 1, 100),
            )
        {
            next.company_name = name;
        }
        if let Some(description) = patch.description.and_then(|raw| {
            errors.check(
                "description",
                validation::free_text(&raw, TextKind::MultiLine, 500),
            )
        }) {
            next.description = description;
        }
        if let Some(raw) = patch.logo_url {
            if raw.trim().is_empty() {
                next.logo_url = String::new();
            } else if let Some(url) = errors.check("logoUrl", validation::web_url(&raw, 2_048)) {
                next.logo_url = url;
            }
        }
        next.site.apply(patch.site, &mut errors);
        errors.into_result().map(|()| next)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hsl_colours_are_checked_and_normalised() {
        assert_eq!(
            HslColor::parse(" 240  9%   3.9% ").map(|c| c.0),
            Ok("240 9% 3.9%".into())
        );
        for bad in [
            "",
            "240 9 3.9%",
            "361 9% 3%",
            "240 101% 3%",
            "hsl(240, 9%, 3%)",
            "red",
            "-1 9% 3%",
            "240 9% 3% 1",
        ] {
            assert_eq!(HslColor::parse(bad), Err(FieldError::InvalidHsl), "{bad}");
        }
    }

    #[test]
    fn a_patch_changes_only_what_it_names() {
        let base = Branding::default();
        let patch = BrandingPatch {
            primary_color: Some("10 50% 50%".into()),
            company_name: Some(" Rifas Ve ".into()),
            ..BrandingPatch::default()
        };
        let next = base.apply(patch).unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(next.primary_color.as_str(), "10 50% 50%");
        assert_eq!(next.company_name, "Rifas Ve");
        assert_eq!(next.success_color, base.success_color);
    }

    #[test]
    fn site_details_default_to_the_shipped_values_and_change_field_by_field() {
        let base = Branding::default();
        assert_eq!(base.site.contact_email, "soporte@rifa.app");
        assert_eq!(base.site.participants, 50_000);

        let next = base
            .apply(BrandingPatch {
                site: SiteInfoPatch {
                    contact_email: Some(" Ayuda@RifasVe.com ".into()),
                    facebook_url: Some(" ".into()),
                    video_urls: Some(vec![
                        "https://www.youtube-nocookie.com/embed/abc".into(),
                        String::new(),
                    ]),
                    countries: Some(30),
                    prizes: Some(" 3M+ ".into()),
                    ..SiteInfoPatch::default()
                },
                ..BrandingPatch::default()
            })
            .unwrap_or_else(|e| panic!("{e:?}"));

        assert_eq!(next.site.contact_email, "ayuda@rifasve.com");
        assert_eq!(next.site.facebook_url, "", "a blank link is left out");
        assert_eq!(
            next.site.video_urls,
            [
                "https://www.youtube-nocookie.com/embed/abc".to_owned(),
                String::new()
            ]
        );
        assert_eq!(next.site.countries, 30);
        assert_eq!(next.site.prizes, "3M+");
        assert_eq!(next.site.instagram_url, base.site.instagram_url);
    }

    #[test]
    fn bad_site_details_are_refused_by_field() {
        let patch = BrandingPatch {
            site: SiteInfoPatch {
                contact_email: Some("no".into()),
                tiktok_url: Some("javascript:alert(1)".into()),
                lottery_results_url: Some("ftp://x.example".into()),
                video_urls: Some(vec!["https://a.example".into()]),
                participants: Some(-1),
                raffles_page_prizes: Some(String::new()),
                ..SiteInfoPatch::default()
            },
            ..BrandingPatch::default()
        };
        let errors = Branding::default().apply(patch).err().unwrap_or_default();
        let fields: Vec<_> = errors.iter().map(|(f, _)| f.as_ref()).collect();
        assert_eq!(
            fields,
            [
                "contactEmail",
                "tiktokUrl",
                "lotteryResultsUrl",
                "videoUrls",
                "rafflesPagePrizes",
                "participants"
            ]
        );
    }

    #[test]
    fn a_bad_patch_changes_nothing_and_names_each_field() {
        let patch = BrandingPatch {
            danger_color: Some("red".into()),
            logo_url: Some("javascript:x".into()),
            ..BrandingPatch::default()
        };
        let errors = Branding::default().apply(patch).err().unwrap_or_default();
        let fields: Vec<_> = errors.iter().map(|(f, _)| f.as_ref()).collect();
        assert_eq!(fields, ["dangerColor", "logoUrl"]);
    }
}

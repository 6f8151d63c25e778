//! The operator's brand: colours (HSL, as the theme's CSS variables take them) and texts.

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
    fn a_bad_patch_changes_nothing_and_names_each_field() {
        let patch = BrandingPatch {
            danger_color: Some("red".into()),
            logo_url: Some("javascript:x".into()),
            ..BrandingPatch::default()
        };
        let errors = Branding::default().apply(patch).err().unwrap_or_default();
        let fields: Vec<_> = errors.iter().map(|(f, _)| *f).collect();
        assert_eq!(fields, ["dangerColor", "logoUrl"]);
    }
}

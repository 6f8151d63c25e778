//! Links into the public site that the server hands out: the buyer's private page of a purchase
//! and a raffle's page. Each names the reader's language (`?lang=en`): a link from an English
//! e-mail opens in English in a browser that has never seen the site.

use rifa_domain::Lang;
use rifa_domain::purchase::PurchaseId;
use rifa_domain::raffle::RaffleId;

/// The site path of the buyer's page of a purchase. The key travels in the fragment, which
/// browsers never send to a server: it stays out of logs and `Referer` headers.
#[must_use]
pub fn purchase_page_path(id: PurchaseId, access_key: &str) -> String {
    format!("/compra/{id}#{access_key}")
}

/// The public site's address, for absolute links in e-mails.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SiteLinks {
    origin: String,
}

impl SiteLinks {
    /// `origin` such as `https://rifa.example` (a trailing slash is dropped).
    #[must_use]
    pub fn new(origin: &str) -> Self {
        Self {
            origin: origin.trim().trim_end_matches('/').to_owned(),
        }
    }

    #[must_use]
    pub fn purchase_page(&self, id: PurchaseId, access_key: &str, lang: Lang) -> String {
        format!(
            "{}/compra/{id}?lang={}#{access_key}",
            self.origin,
            lang.code()
        )
    }

    #[must_use]
    pub fn raffle_page(&self, id: RaffleId, lang: Lang) -> String {
        format!("{}/sorteo/{id}?lang={}", self.origin, lang.code())
    }

    /// The raffle's public verification page; with a reference, the buyer's check filled in
    /// (a reference is not a credential: decision 0020).
    #[must_use]
    pub fn verification_page(&self, id: RaffleId, reference: Option<&str>, lang: Lang) -> String {
        let page = format!(
            "{}/sorteo/{id}/verificacion?lang={}",
            self.origin,
            lang.code()
        );
        match reference {
            Some(reference) => format!("{page}&ref={}", reference.trim()),
            None => page,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_name_the_site_and_the_language_and_keep_the_key_in_the_fragment() {
        let links = SiteLinks::new("https://rifa.example/");
        assert_eq!(
            links.purchase_page(PurchaseId::new(12), "k3y", Lang::En),
            "https://rifa.example/compra/12?lang=en#k3y"
        );
        assert_eq!(
            links.raffle_page(RaffleId::new(3), Lang::Es),
            "https://rifa.example/sorteo/3?lang=es"
        );
        assert_eq!(
            links.verification_page(RaffleId::new(3), Some(" RF-1 "), Lang::En),
            "https://rifa.example/sorteo/3/verificacion?lang=en&ref=RF-1"
        );
    }
}

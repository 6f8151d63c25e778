//! drand rounds from an HTTP relay (`GET {relay}/{chain hash}/public/{round}`). Only the
//! signature is taken: the use case verifies it against the chain's public key, so a relay can
//! withhold a round but not forge one.

use std::time::Duration;

use anyhow::Context;
use rifa_domain::draw::beacon::QUICKNET_CHAIN_HASH;
use rifa_domain::draw::ledger::bytes_from_hex;
use rifa_ports::{BeaconFetchError, BeaconSource};
use serde::Deserialize;

/// How long a relay may take to answer one round.
const TIMEOUT: Duration = Duration::from_secs(10);

/// A drand relay, e.g. `https://api.drand.sh`.
#[derive(Clone, Debug)]
pub struct HttpBeacon {
    relay: String,
    client: reqwest::Client,
}

impl HttpBeacon {
    /// # Errors
    /// When the HTTP client cannot be built.
    pub fn new(relay: &str) -> anyhow::Result<Self> {
        Ok(Self {
            relay: relay.trim_end_matches('/').to_owned(),
            client: reqwest::Client::builder()
                .timeout(TIMEOUT)
                .build()
                .context("failed to build the drand client")?,
        })
    }
}

#[derive(Deserialize)]
struct Round {
    round: u64,
    signature: String,
}

impl BeaconSource for HttpBeacon {
    #[tracing::instrument(name = "drand.signature_of", skip(self))]
    async fn signature_of(&self, round: u64) -> Result<Vec<u8>, BeaconFetchError> {
        let url = format!("{}/{QUICKNET_CHAIN_HASH}/public/{round}", self.relay);
        let response = self
            .client
            .get(&url)
            .send()
            .await
            .with_context(|| format!("failed to reach the drand relay at {url}"))?;
        let status = response.status();
        if !status.is_success() {
            return Err(BeaconFetchError::Unavailable(anyhow::anyhow!(
                "the drand relay answered {status} for round {round}"
            )));
        }
        let body: Round = response
            .json()
            .await
            .context("the drand relay's answer is not a round")?;
        if body.round != round {
            return Err(BeaconFetchError::Unavailable(anyhow::anyhow!(
                "the drand relay answered round {} for round {round}",
                body.round
            )));
        }
        bytes_from_hex(&body.signature).ok_or_else(|| {
            BeaconFetchError::Unavailable(anyhow::anyhow!("the round's signature is not hex"))
        })
    }
}

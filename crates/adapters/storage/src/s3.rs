//! [`S3Store`]: proofs in an S3 bucket (AWS or any S3-compatible server), written and read by
//! the browser through presigned URLs.

use std::time::Duration;

use anyhow::Context as _;
use aws_sdk_s3::Client;
use aws_sdk_s3::config::{BehaviorVersion, Credentials, Region};
use aws_sdk_s3::error::SdkError;
use aws_sdk_s3::operation::get_object::GetObjectError;
use aws_sdk_s3::presigning::PresigningConfig;
use rifa_domain::proof::ProofKind;
use rifa_ports::outbound::{ObjectStore, PresignedUpload, StoredObject};
use secrecy::{ExposeSecret, SecretString};

use crate::check_content_type;
use crate::key::validate_key;

/// Where the bucket is and how to sign for it. Every value is explicit: nothing is read from
/// the environment or `~/.aws` behind the operator's back.
#[derive(Clone, Debug)]
pub struct S3Config {
    pub bucket: String,
    /// `us-east-1`, … (any value for most S3-compatible servers).
    pub region: String,
    /// `None` for AWS itself; `http://127.0.0.1:9000` and the like otherwise.
    pub endpoint_url: Option<String>,
    /// Path-style URLs (`{endpoint}/{bucket}/{key}`), which most S3-compatible servers need;
    /// virtual-hosted style (`{bucket}.{endpoint}/{key}`) otherwise.
    pub force_path_style: bool,
    pub access_key_id: String,
    pub secret_access_key: SecretString,
    /// Sign `If-None-Match: *` into upload URLs so a second `PUT` to one URL fails with 412
    /// (S3 conditional writes). Turn off only for a server that rejects the header.
    pub conditional_writes: bool,
}

/// Payment proofs in an S3 bucket. The API never carries the bytes: it signs URLs for the
/// browser and reads back only the first bytes of an upload to judge it.
#[derive(Debug, Clone)]
pub struct S3Store {
    client: Client,
    bucket: String,
    conditional_writes: bool,
}

impl S3Store {
    /// A store for `config`'s bucket. Makes no request: a wrong endpoint or key shows on the
    /// first use.
    #[must_use]
    pub fn new(config: S3Config) -> Self {
        let credentials = Credentials::new(
            config.access_key_id,
            config.secret_access_key.expose_secret(),
            None,
            None,
            "rifa-config",
        );
        let mut builder = aws_sdk_s3::Config::builder()
            .behavior_version(BehaviorVersion::latest())
            .region(Region::new(config.region))
            .credentials_provider(credentials)
            .force_path_style(config.force_path_style);
        if let Some(endpoint) = config.endpoint_url {
            builder = builder.endpoint_url(endpoint);
        }
        Self {
            client: Client::from_conf(builder.build()),
            bucket: config.bucket,
            conditional_writes: config.conditional_writes,
        }
    }

    /// The bucket the store writes to.
    #[must_use]
    pub fn bucket(&self) -> &str {
        &self.bucket
    }

    /// Creates the bucket unless it exists, for development servers and tests; production
    /// buckets are provisioned (with their CORS rules for browser uploads) by the operator.
    ///
    /// # Errors
    /// When the server is unreachable or refuses.
    pub async fn create_bucket_if_missing(&self) -> anyhow::Result<()> {
        if self
            .client
            .head_bucket()
            .bucket(&self.bucket)
            .send()
            .await
            .is_ok()
        {
            return Ok(());
        }
        match self
            .client
            .create_bucket()
            .bucket(&self.bucket)
            .send()
            .await
        {
            Ok(_) => Ok(()),
            Err(error)
                if error.as_service_error().is_some_and(|e| {
                    e.is_bucket_already_owned_by_you() || e.is_bucket_already_exists()
                }) =>
            {
                Ok(())
            }
            Err(error) => Err(error).context("failed to create the proof bucket"),
        }
    }

    async fn size_of(&self, key: &str) -> anyhow::Result<Option<u64>> {
        match self
            .client
            .head_object()
            .bucket(&self.bucket)
            .key(key)
            .send()
            .await
        {
            Ok(head) => Ok(Some(
                head.content_length()
                    .and_then(|n| u64::try_from(n).ok())
                    .unwrap_or(0),
            )),
            Err(error) if error.as_service_error().is_some_and(|e| e.is_not_found()) => Ok(None),
            Err(error) => Err(error).context("failed to read a proof's size"),
        }
    }
}

fn presigning(ttl: Duration) -> anyhow::Result<PresigningConfig> {
    PresigningConfig::expires_in(ttl).context("invalid lifetime for a presigned URL")
}

/// The total size in `Content-Range: bytes 0-15/12345`.
fn total_from_content_range(range: &str) -> Option<u64> {
    range.rsplit_once('/')?.1.trim().parse().ok()
}

impl ObjectStore for S3Store {
    #[tracing::instrument(name = "storage.s3.presign_upload", skip_all, fields(storage.key = key))]
    async fn presign_upload(
        &self,
        key: &str,
        content_type: &str,
        size: u64,
        ttl: Duration,
    ) -> anyhow::Result<PresignedUpload> {
        let key = validate_key(key)?;
        check_content_type(content_type)?;
        let mut put = self
            .client
            .put_object()
            .bucket(&self.bucket)
            .key(key)
            .content_type(content_type)
            .content_length(i64::try_from(size).context("upload size out of range")?);
        if self.conditional_writes {
            put = put.if_none_match("*");
        }
        let request = put
            .presigned(presigning(ttl)?)
            .await
            .context("failed to presign an upload")?;
        let headers = request
            .headers()
            // Signed, but set by the client's HTTP stack itself (browsers refuse to set them).
            .filter(|(name, _)| {
                !name.eq_ignore_ascii_case("host") && !name.eq_ignore_ascii_case("content-length")
            })
            .map(|(name, value)| (name.to_owned(), value.to_owned()))
            .collect();
        Ok(PresignedUpload {
            url: request.uri().to_owned(),
            headers,
        })
    }

    #[tracing::instrument(name = "storage.s3.presign_download", skip_all, fields(storage.key = key))]
    async fn presign_download(&self, key: &str, ttl: Duration) -> anyhow::Result<String> {
        let key = validate_key(key)?;
        // The bucket serves what the uploader declared; the URL makes it serve the type the API
        // judged the file to be, uncached. S3 cannot add `nosniff` or a CSP sandbox itself:
        // a CDN in front of the bucket can (see the crate's docs).
        let mut request = self.client.get_object().bucket(&self.bucket).key(key);
        if let Some(kind) = ProofKind::from_extension(key) {
            request = request
                .response_content_type(kind.mime())
                .response_content_disposition(format!(
                    "inline; filename=\"comprobante.{}\"",
                    kind.extension()
                ));
        }
        let request = request
            .response_cache_control("private, no-store")
            .presigned(presigning(ttl)?)
            .await
            .context("failed to presign a download")?;
        Ok(request.uri().to_owned())
    }

    #[tracing::instrument(name = "storage.s3.read", skip_all, fields(storage.key = key))]
    async fn read(&self, key: &str, max_bytes: usize) -> anyhow::Result<Option<StoredObject>> {
        let key = validate_key(key)?;
        let answer = self
            .client
            .get_object()
            .bucket(&self.bucket)
            .key(key)
            .range(format!("bytes=0-{}", max_bytes.saturating_sub(1)))
            .send()
            .await;
        let mut object = match answer {
            Ok(object) => object,
            Err(SdkError::ServiceError(error))
                if matches!(error.err(), GetObjectError::NoSuchKey(_)) =>
            {
                return Ok(None);
            }
            // 416: the range starts past the end, i.e. the object is empty.
            Err(SdkError::ServiceError(error)) if error.raw().status().as_u16() == 416 => {
                return Ok(self.size_of(key).await?.map(|size| StoredObject {
                    size,
                    first_bytes: Vec::new(),
                }));
            }
            Err(error) => return Err(error).context("failed to read a stored proof"),
        };
        let size = object
            .content_range()
            .and_then(total_from_content_range)
            .or_else(|| object.content_length().and_then(|n| u64::try_from(n).ok()))
            .context("the server sent no object size")?;
        // A server that ignores `Range` sends everything: read only what is needed.
        let mut first_bytes = Vec::new();
        while first_bytes.len() < max_bytes {
            match object
                .body
                .try_next()
                .await
                .context("failed to read a stored proof")?
            {
                Some(chunk) => first_bytes.extend_from_slice(&chunk),
                None => break,
            }
        }
        first_bytes.truncate(max_bytes);
        Ok(Some(StoredObject { size, first_bytes }))
    }

    #[tracing::instrument(name = "storage.s3.put", skip_all, fields(storage.key = key))]
    async fn put(&self, key: &str, bytes: Vec<u8>, content_type: &str) -> anyhow::Result<()> {
        let key = validate_key(key)?;
        // Named by their content: a CDN in front of the bucket may keep them for good.
        self.client
            .put_object()
            .bucket(&self.bucket)
            .key(key)
            .content_type(content_type)
            .cache_control("public, max-age=31536000, immutable")
            .body(bytes.into())
            .send()
            .await
            .context("failed to store an object")?;
        Ok(())
    }

    #[tracing::instrument(name = "storage.s3.delete", skip_all, fields(storage.key = key))]
    async fn delete(&self, key: &str) -> anyhow::Result<()> {
        let key = validate_key(key)?;
        self.client
            .delete_object()
            .bucket(&self.bucket)
            .key(key)
            .send()
            .await
            .context("failed to delete a stored proof")?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_total_size_is_read_from_a_content_range() {
        assert_eq!(
            total_from_content_range("bytes 0-15/6291456"),
            Some(6_291_456)
        );
        assert_eq!(total_from_content_range("bytes 0-3/4"), Some(4));
        assert_eq!(total_from_content_range("bytes 0-15/*"), None);
        assert_eq!(total_from_content_range("garbage"), None);
    }

    #[test]
    fn the_secret_never_prints() {
        let config = S3Config {
            bucket: "proofs".into(),
            region: "us-east-1".into(),
            endpoint_url: None,
            force_path_style: false,
            access_key_id: "AKIDEXAMPLE".into(),
            secret_access_key: SecretString::from("wJalrXUtnFEMI/K7MDENG"),
            conditional_writes: true,
        };
        let printed = format!("{config:?}");
        assert!(!printed.contains("wJalrXUtnFEMI"), "{printed}");
        assert!(printed.contains("AKIDEXAMPLE"), "{printed}");
        assert!(printed.contains("[REDACTED]"), "{printed}");
    }
}

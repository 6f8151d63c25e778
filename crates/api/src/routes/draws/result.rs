use actix_web::{HttpResponse, web};

use crate::AppState;
use crate::dto::{AdminDrawDto, ErrorBody, LotteryResultRequest, ResultPreviewDto, ResultRequest};
use crate::error::ApiError;
use crate::extract::{Acting, need};
use rifa_app::draws::LotteryResultInput;
use rifa_domain::id::PrizeId;
use rifa_domain::raffle::RaffleId;

/// Records what a source of a prize's chain gave, and draws every prize the rule can now
/// decide, in order: the winner, the rule's steps and the claim window follow. `lottery` is the
/// prize's lottery's published result, before its deadline (409 `prize_source_not_drawn_yet`,
/// `prize_source_deadline_passed`); `beacon` the prize's drand round (its own, or the one
/// after its lottery's deadline), pasted (`signature`) or fetched by the server, and verified
/// against drand's public key (422 `beacon_signature_invalid`; 409 `beacon_round_not_yet`
/// before it is published; 503 `beacon_unavailable` when the relay cannot give it). From a
/// frozen ledger, once each (409 `draw_not_frozen`, `prize_already_drawn`,
/// `prize_result_already_recorded`, `prize_wrong_source`); a result the rule cannot read is a
/// 422 on `result`.
#[tracing::instrument(name = "api.draws.result.record", skip_all)]
#[utoipa::path(post, path = "/api/admin/raffles/{id}/prizes/{prizeId}/result", tag = "admin", security(("bearer" = [])),
    params(("id" = i64, Path), ("prizeId" = i64, Path)),
    request_body = ResultRequest,
    responses(
        (status = 200, body = AdminDrawDto),
        (status = 400, body = ErrorBody),
        (status = 401, body = ErrorBody),
        (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody),
        (status = 413, body = ErrorBody),
        (status = 415, body = ErrorBody),
        (status = 422, body = ErrorBody),
        (status = 503, body = ErrorBody),
    ))]
pub async fn record(
    Acting { actor, .. }: Acting<need::Draws>,
    state: web::Data<AppState>,
    path: web::Path<(RaffleId, PrizeId)>,
    body: web::Json<ResultRequest>,
) -> Result<HttpResponse, ApiError> {
    let (raffle, prize) = path.into_inner();
    let draw = match body.into_inner() {
        ResultRequest::Lottery {
            result,
            published_on,
            official_url,
        } => {
            let typed = LotteryResultInput {
                result,
                published_on,
                official_url,
            };
            state
                .draws
                .draw_from_lottery(raffle, prize, &typed, &actor)
                .await?
        }
        ResultRequest::Beacon { signature } => {
            state
                .draws
                .draw_from_beacon(raffle, prize, signature.as_deref(), &actor)
                .await?
        }
    };
    Ok(HttpResponse::Ok().json(AdminDrawDto::from(draw)))
}

/// What recording a lottery prize's result would decide, recording nothing: each prize it
/// would draw, with the winning number and the winner as the public would see them, and the
/// prize left waiting for its round. The panel shows it and asks for confirmation before
/// recording. Refused as recording would be (409 `prize_source_not_drawn_yet`,
/// `prize_source_deadline_passed`, `prize_result_already_recorded`, `prize_already_drawn`,
/// `prize_wrong_source`, `draw_not_frozen`; 422 on a field).
#[tracing::instrument(name = "api.draws.result.preview", skip_all)]
#[utoipa::path(post, path = "/api/admin/raffles/{id}/prizes/{prizeId}/result/preview", tag = "admin", security(("bearer" = [])),
    params(("id" = i64, Path), ("prizeId" = i64, Path)),
    request_body = LotteryResultRequest,
    responses(
        (status = 200, body = ResultPreviewDto),
        (status = 400, body = ErrorBody),
        (status = 401, body = ErrorBody),
        (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody),
        (status = 413, body = ErrorBody),
        (status = 415, body = ErrorBody),
        (status = 422, body = ErrorBody),
    ))]
pub async fn preview(
    Acting { .. }: Acting<need::Draws>,
    state: web::Data<AppState>,
    path: web::Path<(RaffleId, PrizeId)>,
    body: web::Json<LotteryResultRequest>,
) -> Result<HttpResponse, ApiError> {
    let (raffle, prize) = path.into_inner();
    let LotteryResultRequest {
        result,
        published_on,
        official_url,
    } = body.into_inner();
    let typed = LotteryResultInput {
        result,
        published_on,
        official_url,
    };
    let previewed = state.draws.preview_lottery(raffle, prize, &typed).await?;
    Ok(HttpResponse::Ok().json(ResultPreviewDto::from(previewed.as_slice())))
}

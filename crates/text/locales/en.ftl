# Rifa's server texts in English: the same keys and variables as es.ftl.

## Errors, by the API's `code`

validation_failed = Please check the highlighted fields
not_found = Not found
route_not_found = Route not found
raffle_not_found = Raffle not found
purchase_not_found = Purchase not found
bad_request = The request is malformed
payload_too_large = The request is too large
unsupported_media_type = Expected { $expected }
rate_limited = Too many attempts. Wait { $seconds } { $seconds ->
        [1] second
       *[other] seconds
    } and try again.
request_timeout = The request took too long to arrive. Check your connection and try again.
receipt_being_rendered = This receipt is already being generated. Wait { $seconds } seconds and try again.
email_test_failed = The test e-mail could not be sent: { $detail }
forbidden = Your role ({ $role ->
        [owner] owner
        [manager] manager
        [reviewer] reviewer
       *[catalogue] catalogue
    }) does not allow { $permission ->
        [purchases] seeing or reviewing purchases
        [reports] seeing sales figures
        [catalogue] changing raffles, payment methods or rates
        [draws] running draws or delivering prizes
        [settings] changing the settings or e-mail
        [staff] managing the team
       *[audit] reading the activity log
    }. Ask an owner of the account.
password_change_required = Choose your own password before going on: the one you have was given to you by someone else.
username_taken = That username already exists
staff_not_found = That team account does not exist
not_an_owner = You are no longer an owner: another owner changed your role or disabled your account a moment ago.
own_account = You cannot remove your own owner role, disable your own account or reset your own password: ask another owner, or use "Change password".
service_unavailable = The service is unavailable right now. Please try again in a few seconds.
internal_error = Something went wrong on our side. Please try again.
max_below_held_number = You cannot lower the ticket maximum: ticket { $highest_held } is already sold or reserved
raffle_has_purchases = This raffle has { $count } purchase(s) and cannot be deleted; set its status to finished instead
raffle_size_locked = The number of tickets cannot change: the raffle already has purchases, and its size decides how the winning number is read. For another size, create a new raffle.
raffle_not_on_sale = Raffle unavailable - This raffle has ended or is not available right now.
total_mismatch = The total sent (US$ { $sent }) does not match the current price (US$ { $expected }). Refresh the page and try again.
sales_closed = Purchases Closed - Purchases for this raffle have closed.
hold_expired = The time to send the payment proof for this purchase ran out and its numbers went back on sale. If you already paid, write to us with your reference: we can reopen it if the numbers are still free.
numbers_no_longer_free = It cannot be reopened: these numbers are no longer free: { $numbers }
purchase_not_expired = Only expired purchases can be reopened
tickets_taken = These tickets are no longer available: { $numbers }. Pick others and try again.
too_few_left = { $available ->
        [0] There are no numbers left in this raffle.
        [one] Only 1 number is left in this raffle: ask for 1 or pick it from the list.
       *[other] Only { $available } numbers are left in this raffle: ask for { $available } or fewer.
    }
payment_reference_used = This payment reference was already used for another purchase with this payment method. Check the number on your receipt: each payment pays for one purchase.
random_draw_contended = Many people are buying right now and the numbers drawn for you were sold before we could confirm. Please try again.
# The verifiable draw (decision 0020).
draw_rules_locked = The raffle's prizes and rules cannot change: it already has purchases. For other rules, create a new raffle.
draw_on_sale_needs_prize = This raffle is on sale and needs at least one prize. To remove them all, set it to “Inactive” first.
raffle_kept_unpublished_without_prize = Saved unpublished: a raffle goes on sale only with its first prize and the public source of its result. Add them under “Prizes” and set it to “Active” again.
draw_sales_still_open = Sales of this raffle are still open: the list of numbers is frozen when they close.
draw_purchases_pending = { $count ->
        [one] 1 purchase is pending: approve or reject it before freezing the list of numbers.
       *[other] { $count } purchases are pending: approve or reject them before freezing the list of numbers.
    }
draw_no_prizes = Add at least one prize with its result source before freezing the list of numbers.
draw_nothing_sold = This raffle has no sold and approved number: there is nothing to draw.
draw_already_frozen = This raffle's list of numbers is already frozen.
draw_not_frozen = This raffle's list of numbers is not frozen yet: it is published when sales close.
draw_ledger_frozen = This raffle's list of numbers is frozen for the draw: its purchases cannot change.
prize_not_found = Prize not found
prize_already_drawn = This prize was already drawn; a recorded result cannot change.
prize_wrong_source = This prize is drawn from another result source than the one sent.
prize_not_drawn = This prize has not been drawn yet.
prize_already_delivered = This prize was already marked as delivered.
draw_beacon_round_too_early = Prize { $position } is drawn from drand round { $round }, published before the list is frozen: choose a round after sales close (with other rules, in a new raffle if there are purchases already).
draw_source_before_freeze = Prize { $position } is drawn from a lottery that draws on { $drawsAtLocal } (its local time), before the list is frozen or within 10 minutes of it: its result would be known first. Choose a later draw (in a new raffle if there are purchases already).
prize_source_not_drawn_yet = This prize's lottery draws on { $drawsAtLocal } (its local time): there is no result to record yet.
prize_source_deadline_passed = The deadline to record this lottery's result passed on { $deadlineLocal } (its local time): as the published rules say, drand round { $round } decides the prize.
prize_result_already_recorded = This source's result is already recorded; a recorded result cannot change.
beacon_round_not_yet = drand round { $round } has not been published yet.
beacon_unavailable = The drand round could not be fetched right now. Try again later or paste its signature.
beacon_signature_invalid = The signature is not drand's for round { $round }.
purchase_not_pending-proof = This purchase was already reviewed; it takes no new proof
purchase_not_pending-decision = This purchase is already { $status ->
        [pending] pending
        [approved] approved
        [rejected] rejected
        [expired] expired
       *[test] a test
    }; only pending purchases can be approved or rejected
too_many_uploads = Too many proof uploads were requested for this purchase; contact us and we will help
proof_missing = Proof of payment required - You must upload a proof of payment
proof_too_large = File too large - The file must be smaller than 5MB
proof_wrong_type = Invalid file type - Only images (JPG, PNG, GIF, WEBP) and PDFs are allowed
proof_heif = iPhone HEIC photos cannot be reviewed here. Take a screenshot of the payment receipt (it is saved as a PNG) and send that image.
photo_too_large = The photo is too large: it must be under { $maxMegabytes } MB.
photo_not_a_picture = That file is not a photo: upload a JPG, PNG, GIF or WEBP image.
photo_heif = iPhone HEIC photos cannot be shown on the web. Share it as JPG (or take a screenshot) and upload it again.
photo_too_many_pixels = The photo has too many pixels (more than { $megapixels } megapixels): make it smaller and upload it again.
photo_unreadable = The photo is damaged or incomplete and cannot be read: upload it again.
proof_type_mismatch = Invalid file type - The file is a { $actual } but was sent as a { $declared }; save it with the .{ $extension } extension and upload it again
proof_unreadable = Damaged file - The file is not a valid { $kind }; open it to check it and upload it again
proof_too_many_pixels = Image too large - The image is { $width }×{ $height } pixels; it must have at most 40 megapixels
upload_url_invalid = The upload link is invalid or has expired; please try again
upload_size_mismatch = The file is not the size given when the link was requested; please try again
upload_url_used = This upload link was already used
no_tickets_found = No tickets were found for this email/phone
no_active_tickets = You have no tickets in active raffles right now.
missing_fields = Please fill in all fields
invalid_credentials = Invalid credentials
unauthorized = Sign in to continue
token_expired = Your session has expired; sign in again
token_invalid = Invalid session; sign in again
session_ended = Your session has ended (it was signed out here or on another device); sign in again
exchange_rate_pair_taken = A { $from } → { $to } rate already exists (no. { $id }: 1 { $from } = { $rate } { $to }). Each currency pair has one rate: edit that one.

## Field errors, by the field error's code

field-required = This field is required
field-invalid_characters = Contains characters that are not allowed
field-too_short = Must be at least { $min } characters
field-too_long = Must be at most { $max } characters
field-name_too_short = Name must be at least 2 characters
field-name_not_plain = The name may only hold letters, digits, spaces and . , ' -, with no links or markup
field-invalid_email = Invalid email
field-phone_too_short = Phone number must have at least 10 digits
field-payment_method_required = Payment method is required
field-payment_method_unavailable = This payment method is not available
field-terms_not_accepted = You must accept the terms
field-not_a_number = Must be a number
field-out_of_range = Must be between { $min } and { $max }
field-too_many_decimals = At most { $max } decimal places
field-unknown_option = Invalid value; options: { $allowed }
field-invalid_date = Invalid date
field-date_before = Must be after { $min }
field-invalid_url = Invalid URL
field-invalid_hsl = Invalid colour; use the HSL form "240 9% 3.9%"
field-tickets_empty = You must select at least 1 ticket
field-tickets_below_minimum = Minimum purchase: you must select at least { $min ->
        [1] 1 ticket
       *[other] { $min } tickets
    }.
field-tickets_above_maximum = Ticket limit: you can buy at most { $max ->
        [1] 1 ticket
       *[other] { $max } tickets
    } in this purchase.
field-per_person_limit = You can buy only { $max ->
        [1] 1 ticket
       *[other] { $max } tickets
    } per person. { $used ->
        [0] Choose at most { $max }.
        [1] You already hold 1 ticket in this raffle.
       *[other] You already hold { $used } tickets in this raffle.
    }
field-ticket_out_of_range = Ticket { $number } does not exist in this raffle (1 to { $max })
field-ticket_repeated = Ticket { $number } is listed twice
field-numbers_and_random_count = Choose your numbers or ask for random ones, not both
field-min_above_max = The minimum per purchase cannot exceed the maximum per purchase
# $reasons: the estimator's own warning and suggestions (English), $reason_count how many.
field-weak_password = { $reason_count ->
        [0] Password too easy to guess; use a longer phrase of uncommon words
       *[other] Password too easy to guess: { $reasons }
    }
field-notes_required_to_reject = Write the reason for the rejection in the notes
field-lookup_value_required = Enter a value to verify
field-same_currency = The source and target currencies must differ
field-wrong_current_password = The current password is not correct
field-same_as_current_password = The new password must differ from the current one

## The draw's rule, step by step, and a check of a published draw (certificate, verify-draw)
draw-step-last-digits = The result { $result } ends in { $used } (its last { $digits } digits): number { $number } is drawn.
draw-step-beacon = drand round { $round } gave the randomness { $randomness }; its first 8 bytes divided by { $max } leave a remainder that, plus 1, is number { $number }.
draw-step-not-in-raffle = Number { $number } does not exist in this raffle (it runs from 1 to { $max }): the search goes upward.
draw-step-not-sold = Number { $number } was not sold: the next sold number upward, { $next }, wins.
draw-step-already-won = Number { $number } already won an earlier prize: the next sold number upward, { $next }, wins.
draw-step-wrapped-around = Past the last sold number, the search went on from the first.
draw-step-wins = Number { $number } wins.
draw-step-no-winner = No sold number is left to win: the prize has no winner.
draw-step-digits = The result { $result } is read by its last { $digits } digits: { $used }.
draw-step-beacon-randomness = drand round { $round } gave the randomness { $randomness }, read as a 256-bit number.
draw-step-names = The result names number { $number }.
draw-step-outside-raffle = Number { $number } does not exist in this raffle (it runs from 1 to { $max }).
draw-step-not-sold-next-source = Number { $number } was not sold.
draw-step-already-won-next-source = Number { $number } already won an earlier prize.
draw-step-incomplete-round = The number read falls in the incomplete last round of { $count }: counting it would favour some numbers.
draw-step-in-play = { $count ->
        [one] 1 sold number is still in play.
       *[other] { $count } sold numbers are still in play, from lowest to highest.
    }
draw-step-place = The number read, divided by { $count }, leaves { $remainder }: the one in place { $place } of that list, { $number }, wins.
draw-step-next-source = This result gives no winner: the next published source of this prize decides.
draw-step-rehashed = So that no number is favoured, that value's SHA-256, { $randomness }, is read again.
draw-step-source-lapsed = { $source ->
    [0] The lottery's result
   *[other] The result of source { $source }
} was not recorded by its deadline ({ $deadline }): the next published source of this prize decides.
draw-check-not-sorted = The list is not sorted: the number at position { $index } is not greater than the one before.
draw-check-not-in-raffle = The list has number { $number }, which does not exist in a raffle from 1 to { $max }.
draw-check-root-matches = { $size ->
        [one] The list's fingerprint (1 sold number) matches the one published when sales closed.
       *[other] The list's fingerprint ({ $size } sold numbers) matches the one published when sales closed.
    }
draw-check-size-differs = The published size ({ $published }) does not match the numbers in the list ({ $entries }).
draw-check-root-differs = The list's fingerprint does NOT match the published one: computed { $computed }.
draw-check-winner-confirmed = Prize { $position }: the result and the rule give number { $winner }, the one published.
draw-check-winner-differs = Prize { $position }: the result and the rule give number { $computed }, but { $published } was published.
draw-check-result-unreadable = Prize { $position }: the published result cannot be read as a number.
draw-check-not-drawn = Prize { $position }: not drawn yet.
draw-check-beacon-invalid = Prize { $position }: drand's signature is not the round's, or does not give the randomness used.
draw-check-beacon-round-differs = Prize { $position }: drand round { $announced } was announced, but { $used } was used.
draw-check-title = Check of the draw of “{ $raffle }” (published fingerprint { $root })
draw-check-reference-found = Reference { $reference } has { $count ->
        [one] 1 number in the list: { $numbers }; its inclusion proof leads to the published fingerprint.
       *[other] { $count } numbers in the list: { $numbers }; each one's inclusion proof leads to the published fingerprint.
    }
draw-check-reference-unproven = Reference { $reference } has numbers in the list ({ $numbers }), but their inclusion proof does NOT lead to the published fingerprint.
draw-check-reference-none = Reference { $reference } has no numbers in this list. Check that you copied it correctly from the receipt.

## The draw's certificate ("Acta de sorteo")
cert-title = Draw certificate
cert-prize = Prize { $position }: { $title }
cert-heading-commitment = Frozen list of numbers
cert-root = Fingerprint of the list (Merkle root, SHA-256)
cert-size = Sold numbers in the list
cert-frozen_at = Frozen on
cert-drawn_at = Drawn on
cert-heading-source = Public result
cert-lottery = Lottery
cert-lottery_date = Draw of
cert-source_url = Results published at
cert-beacon = Randomness beacon
cert-beacon_round = Round
cert-result = Result
cert-published_on = Published on
cert-official_url = Official publication
cert-beacon_signature = Round signature
cert-beacon_randomness = Randomness (SHA-256 of the signature)
cert-heading-rule = The published rule, step by step
cert-winning_number = Winning number
cert-no_winner = No winner
cert-winner = Winner: { $name } ({ $country })
cert-verify = Anyone can check this draw, the list and this result at { $link }, or offline with the published file and “rifa-api verify-draw”.

## Receipts (PDF and HTML invoice)

receipt-document_title = Purchase receipt
receipt-raffle = Raffle
receipt-buyer = Buyer
receipt-name = Name
receipt-id_document = ID or passport
receipt-email = E-mail
receipt-phone = Phone
receipt-country = Country
receipt-payment = Payment
receipt-reference = Reference
receipt-status = Status
receipt-date = Date
receipt-payment_method = Payment method
receipt-discount = Discount
receipt-total = Total
receipt-amount_to_pay = Amount to pay
receipt-amount_paid = Amount paid
receipt-purchase_amount = Purchase amount
receipt-rate = Rate
receipt-tickets = Tickets
receipt-page = Page
receipt-generated = Generated on
receipt-print = Print
receipt-pending_notice = You will receive a confirmation e-mail when your payment is approved. Keep this receipt and your reference.
receipt-test_notice = Test purchase: not a real purchase; it holds no numbers.
receipt-rejected_notice = Purchase rejected: nothing is owed for it, and its numbers were released.
receipt-expired_notice = Hold expired: the payment proof did not arrive in time and its numbers went back on sale.
receipt-status-pending = Processing payment
receipt-status-approved = Approved
receipt-status-rejected = Rejected
receipt-status-test = Test mode
receipt-status-expired = Expired

## The purchase form's countries, by their stored slug

country-venezuela = Venezuela
country-colombia = Colombia
country-mexico = Mexico
country-argentina = Argentina
country-peru = Peru
country-ecuador = Ecuador
country-estados-unidos = United States
country-other = Other

## The buyer's e-mails

mail-subject-received = We received your purchase { $reference } – { $title }
mail-subject-approved = Purchase approved: { $reference } – { $title }
mail-subject-rejected = Purchase rejected: { $reference } – { $title }
mail-lead-received = We received your purchase. We will verify your payment and let you know here once it is approved.
mail-lead-received-no_proof = We received your purchase, but your proof of payment did not reach us. Send it from your purchase page (the link below) before the hold on your numbers runs out: without it we cannot verify your payment.
mail-lead-approved = Your payment was verified and your purchase is approved! Your tickets are in the draw. Good luck!
mail-lead-rejected = We could not approve your purchase and its numbers were released. If you think this is a mistake, reply to this e-mail with your reference.
mail-subject-expired = Your hold expired { $reference } – { $title }
mail-lead-expired = We did not receive your payment proof in time, so your numbers went back on sale. If you already paid, reply to this e-mail with your reference and your proof: we can reopen your purchase if the numbers are still free.
mail-send_proof_link = Send your proof of payment
mail-buyer_link = Follow your purchase
mail-subject-numbers_released = Numbers are available again in { $title }
mail-lead-numbers_released = Numbers of “{ $title }”, the raffle you asked us to watch, were released. They go fast: pick yours now.
mail-raffle_link = See the raffle
mail-alert_footer = We write to you only this once because you asked on the raffle's page; your address is kept for nothing else.
mail-greeting = Hello { $name },
mail-more_numbers = and { $count } more (all in the attached receipt)
mail-raffle = Raffle
mail-reference = Reference
mail-tickets = Tickets
mail-total = Total
mail-payment_method = Payment method
mail-team_note = Note from the team
mail-receipt_attached = Your PDF receipt is attached.
mail-receipt_filename = receipt-{ $reference }.pdf
mail-greeting-plain = Hello,
mail-subject-ledger_frozen = The list of numbers of { $title } is frozen
mail-lead-ledger_frozen = Sales of “{ $title }” closed and the list of sold numbers was frozen before the result is known. This is its fingerprint: if anyone changed a single number, the fingerprint would be different. Your numbers are in the list, and you can check it yourself.
mail-ledger_root = Fingerprint of the list (SHA-256)
mail-ledger_size = Sold numbers in the list
mail-ledger_frozen_at = Frozen on
mail-verify_link = Check it yourself
mail-proof_attached = Attached is the proof that each of your numbers is in the list (a JSON file), so you can check it without relying on us.
mail-proof_filename = proof-{ $reference }.json
mail-subject-prize_won = You won in { $title }!
mail-lead-prize_won = Congratulations! Your number { $number } won “{ $prize }” in “{ $title }”. Reply to this e-mail to arrange the delivery. Attached is the draw's certificate, with the result and every step of the published rule.
mail-prize = Prize
mail-winning_number = Winning number
mail-draw_source = Result used
mail-claim_until = Claim it before
mail-certificate_attached = Attached is the draw's certificate as a PDF.
mail-certificate_filename = draw-certificate-prize-{ $position }.pdf
draw-source-lottery = { $name }, draw of { $date } at { $time } ({ $zone } time)
draw-source-beacon = drand (quicknet), round { $round }
mail-test-subject = Test e-mail from { $company }
mail-test-body = If you can read this, the e-mail settings work: buyers will receive their confirmations.

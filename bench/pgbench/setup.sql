-- Raffles for pgbench's purchase script, in a database that rifa-api has migrated (start the
-- API once on it so the migrations run). Prints "<first raffle id> <raffle count> <payment
-- method id>": pass them to pgbench as -D raffle_base=… -D raffles=… -D method=….
--
--   psql -Atq -f bench/pgbench/setup.sql postgres://…/rifa_bench_pg   [-v tickets=99999]
--
-- Each raffle matches the API scenario: 9,999 numbers (or `tickets`), price 1 (100 cents), 1 to
-- 3 per purchase. There are 1,000 of them so that every transaction really writes its three ticket
-- rows: with one raffle, pgbench fills its 9,999 numbers within a second and then nearly every
-- transaction inserts no ticket at all (ON CONFLICT DO NOTHING), a cheaper shape than a sale.
\set ON_ERROR_STOP on
\set raffles 1000
\if :{?tickets}
\else
\set tickets 9999
\endif
INSERT INTO payment_methods (name, kind, active, details, exchange_rate_id)
VALUES ('Bench Pay', 'digital', true, '{"email":"pagos@example.com"}', NULL)
RETURNING id AS method \gset
INSERT INTO raffles (title, description, image, price_cents, status, max_tickets,
                     min_per_purchase, max_per_purchase, draw_date, end_date, created_at)
SELECT 'Rifa de pgbench ' || i, 'Rifa creada para pgbench', '', 100, 'available', :tickets,
       1, 3, '2030-01-15 23:59:59+00', NULL, now()
FROM generate_series(1, :raffles) AS i;
SELECT min(id) || ' ' || count(*) || ' ' || :method FROM raffles
WHERE title LIKE 'Rifa de pgbench %';

"use client";

import { useCallback, useDeferredValue, useMemo, useState } from "react";
import dynamic from "next/dynamic";
import { useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { Ban, FlaskConical, ShieldAlert } from "lucide-react";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Skeleton } from "@/components/ui/skeleton";
import { useCanTestPurchase, useIsAdmin } from "@/lib/auth/session";
import { ticketCount, type TicketChoice } from "@/lib/api/client";
import type { PaymentMethod, PurchaseResponse, Raffle } from "@/lib/api/types";
import { availableNumbers, canPurchase, withoutTaken } from "@/lib/picker";
import { ticketWidth } from "@/lib/format";
import { countdownTarget } from "@/lib/countdown";
import { salesClosed } from "@/lib/sales";
import { timesCount } from "@/lib/decimal";
import { useAvailability } from "@/lib/swr/use-availability";
import { useQuote } from "@/lib/swr/use-quote";
import { usePaymentMethods } from "@/lib/swr/use-payment-methods";
import { useLiveRaffle } from "@/lib/swr/use-raffles";
import { Countdown } from "./countdown";
import { QuickBuyPanel } from "./quick-buy-panel";
import { SoldOutPanel } from "./sold-out-panel";
import { TicketPicker } from "./ticket-picker";

// The form (react-hook-form, zod) and the receipt load only once they are needed: the receipt's
// code with the form (so it is there when the purchase completes), not during hydration.
const PurchaseForm = dynamic(() => import("./purchase-form"), {
  ssr: false,
  loading: () => <Skeleton className="h-96 w-full" />,
});
const ReceiptDialog = dynamic(() => import("./receipt-dialog").then((m) => m.ReceiptDialog), { ssr: false });
// Shown only once nothing is left to pick: its release-alert form (react-hook-form, zod) would
// otherwise add 47 KB gzipped to every raffle page's first-load JavaScript.
const HeldNumbersPanel = dynamic(() => import("./held-numbers-panel").then((m) => m.HeldNumbersPanel), { ssr: false });

/**
 * The interactive part of a raffle page: admin banners, countdown, picker and purchase form.
 * Visitors see what the server rendered; a signed-in admin gets the admin view of the raffle
 * (any status) and buys in test mode (every admin, always: see README "Test mode").
 *
 * `renderedAt` is the server's clock when it rendered the page: a raffle whose draw (or end)
 * date has passed is rendered closed on the server already, so no picker flashes before
 * hydration.
 */
export function RaffleExperience({
  raffle: publicRaffle,
  methods: initialMethods,
  renderedAt = null,
}: {
  raffle: Raffle;
  methods: PaymentMethod[];
  renderedAt?: number | null;
}) {
  const t = useTranslations("raffle");
  const tc = useTranslations("common");
  const router = useRouter();
  const isAdmin = useIsAdmin();
  const testsPurchases = useCanTestPurchase();
  const [closed, setClosed] = useState(() => closedAt(publicRaffle, renderedAt));
  // The server refused a purchase because sales closed (409 sales_closed) before this page knew.
  const [refusedClosed, setRefusedClosed] = useState(false);
  const [selected, setSelected] = useState<number[]>([]);
  const [taken, setTaken] = useState<number[]>([]);
  // The last lost race: the numbers someone else took and the server's message naming them.
  const [lostRace, setLostRace] = useState<{ numbers: number[]; message: string } | null>(null);
  const [receipt, setReceipt] = useState<{ response: PurchaseResponse; proofProblem: string | null } | null>(null);
  // Quick buy: on or off, and how many numbers the buyer asked for (kept when it is turned off).
  const [quick, setQuick] = useState(false);
  const [quickWanted, setQuickWanted] = useState(() => Math.max(1, publicRaffle.purchaseLimits.min));

  const onSale = publicRaffle.status === "available";
  // Whether sales are open and the server's clock, as the API says now: the rendered page may
  // come from a CDN's copy minutes old, so its serverTime does not correct this browser's clock.
  const { data: live } = useLiveRaffle(publicRaffle.id, publicRaffle, onSale);
  const latest = live !== undefined && live !== publicRaffle && live.id === publicRaffle.id ? live : null;
  const raffle: Raffle = latest ? { ...publicRaffle, salesOpen: latest.salesOpen, salesCloseAt: latest.salesCloseAt, serverTime: latest.serverTime } : publicRaffle;
  const clockTime = latest?.serverTime ?? null;
  // On sale, but the server says sales are closed (its clock, its closing hours): the closed panel.
  const serverClosed = salesClosed(raffle) || (onSale && refusedClosed);
  const canBuy = testsPurchases || (onSale && !closed && !serverClosed);

  const availability = useAvailability(raffle.id, isAdmin);
  const { data: methods = initialMethods } = usePaymentMethods(initialMethods);

  const available = useMemo(() => {
    if (!availability.data) return null;
    const all = availableNumbers(availability.data.bitmap, availability.data.maxTickets);
    if (taken.length === 0) return all;
    const gone = new Set(taken);
    return all.filter((n) => !gone.has(n));
  }, [availability.data, taken]);

  const limits = raffle.purchaseLimits;
  // Quick buy asks for no more than the limit nor than the numbers left; with fewer left than
  // the minimum (or while they load), it cannot be used.
  const quickMax = Math.min(limits.max, available?.length ?? 0);
  const quickOn = quick && quickMax >= limits.min;
  const quickCount = Math.max(limits.min, Math.min(quickMax, quickWanted));
  const choice = useMemo<TicketChoice>(() => (quickOn ? { randomCount: quickCount } : { numbers: selected }), [quickOn, quickCount, selected]);
  // The picker shows a new choice at once; the quote, the purchase form (whose chunks load on the
  // first pick) and the receipt follow in a deferred render, after the picker's frame. Rendered
  // with the click, their work kept "random 10" over 100 ms on a phone (issue 20). The quick-buy
  // panel and the form are memoised, so the click's own render skips them.
  const tickets = useDeferredValue(choice);
  const count = ticketCount(tickets);
  const quote = useQuote(raffle.id, count);

  // Nothing left to pick: sold out, or held by purchases whose holds may still expire.
  const noneLeft = available !== null && available.length === 0;
  const pendingCount = availability.data?.pendingCount ?? 0;
  // SWR's bound mutates are stable (the response objects are not): the held panel's timer is not
  // re-armed on every render, and the memoised form keeps its callbacks.
  const reloadAvailability = availability.mutate;
  const reloadQuote = quote.mutate;
  const refreshAvailability = useCallback(() => void reloadAvailability(), [reloadAvailability]);

  const width = ticketWidth(raffle.maxTickets);
  const formShown = canBuy && canPurchase(count, limits.min, limits.max);
  // Once shown, the form stays mounted (hidden while the count is out of limits): swapping a
  // number or losing a race must not wipe what the buyer typed or the file they chose.
  const [formStarted, setFormStarted] = useState(false);
  if (formShown && !formStarted) setFormStarted(true);
  const fresh = quote.data && quote.data.ticketCount === count ? quote.data : undefined;
  const total = fresh?.total ?? timesCount(raffle.price, count);
  const discount = fresh?.discount ?? "0";
  // The panel prices its own count, which may be a render ahead of the deferred one.
  const quickTotal = quickCount === count ? total : timesCount(raffle.price, quickCount);

  // The sold/available figures beside the picker are server-rendered: re-render them whenever
  // the numbers on sale change (a purchase here, or numbers someone else took).
  const onTaken = useCallback((numbers: number[], message: string) => {
    setTaken((prev) => [...prev, ...numbers]);
    setLostRace({ numbers, message });
    setSelected((prev) => withoutTaken(prev, numbers));
    void reloadAvailability();
    router.refresh();
  }, [reloadAvailability, router]);

  // A quick buy asked for more than are left: ask for what is left (if that is still a purchase).
  const minimum = limits.min;
  const onTooFewLeft = useCallback((left: number | null) => {
    if (left !== null) {
      setQuickWanted(left);
      if (left < minimum) setQuick(false);
    }
    void reloadAvailability();
    router.refresh();
  }, [reloadAvailability, router, minimum]);

  // Picking numbers by hand (or with the picker's random buttons) leaves quick buy.
  const onPicked = useCallback((next: number[]) => {
    setQuick(false);
    setSelected(next);
  }, []);

  const startQuick = useCallback(() => {
    setSelected([]);
    setLostRace(null);
    setQuick(true);
  }, []);

  const onPurchased = useCallback((result: PurchaseResponse, proofProblem: string | null) => {
    setReceipt({ response: result, proofProblem });
    setQuick(false);
    setSelected([]);
    setTaken([]);
    setLostRace(null);
    void reloadAvailability();
    if (!result.testMode) router.refresh();
  }, [reloadAvailability, router]);

  const onSalesClosed = useCallback(() => {
    setRefusedClosed(true);
    router.refresh();
  }, [router]);

  const leaveQuick = useCallback(() => setQuick(false), []);
  const onPriceChanged = useCallback(() => void reloadQuote(), [reloadQuote]);

  return (
    <div className="space-y-6">
      {isAdmin && !onSale && (
        <Alert variant="warning" data-testid="admin-view-banner">
          <ShieldAlert aria-hidden />
          <AlertTitle>{t("adminViewTitle")}</AlertTitle>
          <AlertDescription>{t("adminViewText", { status: tc.has(`statuses.${raffle.status as "available"}`) ? tc(`statuses.${raffle.status as "available"}`) : raffle.status })}</AlertDescription>
        </Alert>
      )}
      {testsPurchases && (
        <Alert variant="warning" data-testid="admin-test-banner">
          <FlaskConical aria-hidden />
          <AlertTitle>{t("adminTestTitle")}</AlertTitle>
          <AlertDescription>{t("adminTestText")}</AlertDescription>
        </Alert>
      )}

      {/* A visitor on a raffle that is not on sale gets one explanation, not a countdown too. */}
      {(onSale || isAdmin) && (
        <Countdown
          drawDate={raffle.drawDate ?? null}
          endDate={raffle.endDate ?? null}
          createdAt={raffle.createdAt}
          salesCloseAt={raffle.salesCloseAt}
          serverTime={clockTime}
          closed={serverClosed}
          renderedAt={renderedAt}
          onClosedChange={setClosed}
        />
      )}

      {!canBuy ? (
        !onSale && (
          <div role="status" className="flex items-start gap-4 rounded-xl border border-danger/40 bg-danger/5 p-5" data-testid="raffle-unavailable">
            <Ban aria-hidden className="size-8 shrink-0 text-danger-strong" />
            <div>
              <p className="text-lg font-bold text-danger-strong">{t("unavailableTitle")}</p>
              <p className="text-sm text-muted-foreground">{t("unavailableText")}</p>
            </div>
          </div>
        )
      ) : (
        <>
          {noneLeft && pendingCount === 0 && <SoldOutPanel />}
          {noneLeft && pendingCount > 0 && (
            <HeldNumbersPanel
              raffleId={raffle.id}
              pendingCount={pendingCount}
              nextReleaseAt={availability.data?.nextReleaseAt ?? null}
              serverTime={clockTime}
              onDue={refreshAvailability}
            />
          )}
          <section aria-labelledby="pick-title" hidden={noneLeft} className="space-y-4 rounded-xl border bg-card p-4 shadow-sm sm:p-6">
            <h2 id="pick-title" className="text-xl font-bold">{t("pickTitle")}</h2>
            <TicketPicker
              available={available}
              loadError={Boolean(availability.error)}
              width={width}
              price={raffle.price}
              limits={limits}
              selected={selected}
              onSelectedChange={onPicked}
              quote={quote.data}
              lostRace={lostRace}
              onLostRaceDismiss={() => setLostRace(null)}
              randomCount={quickOn ? quickCount : null}
              quickBuy={
                <QuickBuyPanel
                  active={quickOn}
                  count={quickCount}
                  min={limits.min}
                  max={quickMax}
                  loading={available === null}
                  total={quickTotal}
                  onCountChange={setQuickWanted}
                  onStart={startQuick}
                  onLeave={leaveQuick}
                />
              }
            />
          </section>
          {formStarted && (
            <section aria-labelledby="form-title" hidden={!formShown} className="space-y-4 rounded-xl border bg-card p-4 shadow-sm sm:p-6" data-testid="purchase-section">
              <h2 id="form-title" className="text-xl font-bold">{t("formTitle")}</h2>
              <PurchaseForm
                raffleId={raffle.id}
                tickets={tickets}
                width={width}
                total={total}
                discount={discount}
                methods={methods}
                asAdmin={testsPurchases}
                onPurchased={onPurchased}
                onTaken={onTaken}
                onPriceChanged={onPriceChanged}
                onSalesClosed={onSalesClosed}
                onTooFewLeft={onTooFewLeft}
              />
            </section>
          )}
        </>
      )}
      {(receipt || formStarted) && (
        <ReceiptDialog receipt={receipt?.response ?? null} proofProblem={receipt?.proofProblem ?? null} onClose={() => setReceipt(null)} />
      )}
    </div>
  );
}

/** Whether the raffle's countdown had reached zero at `at` (ms), as the server saw it. */
function closedAt(raffle: Pick<Raffle, "drawDate" | "endDate" | "salesCloseAt">, at: number | null): boolean {
  if (at === null) return false;
  const { target } = countdownTarget(raffle.drawDate ?? null, raffle.endDate ?? null, raffle.salesCloseAt);
  return target !== null && target.getTime() <= at;
}

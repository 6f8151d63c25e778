"use client";

import { useEffect, useMemo, useRef, useState } from "react";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { useLocale, useTranslations } from "next-intl";
import { AlertCircle, CheckCircle2, Download, ExternalLink, Fingerprint, Loader2, RotateCw, Search, Trophy, XCircle } from "lucide-react";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { ApiError } from "@/lib/api/fetcher";
import type { PublishedLedger } from "@/lib/api/types";
import { drawNumberLabel, drandRoundUrl } from "@/lib/draw/display";
import { referenceFromInput } from "@/lib/draw/reference";
import { chainOf, lotteryDrawsAt, roundTime } from "@/lib/draw/chain";
import { checkLedger, ledgerRule, numbersOf, type Finding } from "@/lib/draw/verify";
import { formatCount, formatDate, formatDateTime } from "@/lib/format";
import { swrKeys } from "@/lib/swr/cache";
import { useDrawLedger } from "@/lib/swr/use-draw-ledger";
import { cn } from "@/lib/utils";
import { drawReferenceSchema, type DrawReferenceValues } from "@/lib/validations/draw-reference";
import { PrizeSourceText } from "./prize-source";
import { useStepText } from "./use-draw-text";

/**
 * /sorteo/{id}/verificacion: the browser downloads the published ledger and repeats every check
 * itself (the fingerprint, each prize's winner, a buyer's own numbers), so trusting the page
 * means trusting only the published file and the buyer's browser.
 */
export function DrawVerification({ raffleId, initialReference = null }: { raffleId: number; initialReference?: string | null }) {
  const t = useTranslations("draw.verify");
  const { data: ledger, error, mutate } = useDrawLedger(raffleId);
  if (error) {
    // Before the freeze the API answers 409 `draw_not_frozen` (told by its code: a status may be
    // shared); a 404 is a raffle that is not public.
    const notFrozen = error instanceof ApiError && error.code === "draw_not_frozen";
    const missing = error instanceof ApiError && error.status === 404;
    return (
      <div className="space-y-8">
        <Header />
        <Alert variant={notFrozen ? "default" : "destructive"} data-testid="ledger-unavailable">
          <AlertCircle aria-hidden />
          <AlertTitle>{notFrozen ? t("notFrozenTitle") : missing ? t("notFoundTitle") : t("errorTitle")}</AlertTitle>
          <AlertDescription>
            <p>{notFrozen ? t("notFrozen") : missing ? t("notFound") : t("error")}</p>
            {!notFrozen && !missing && (
              <Button type="button" variant="outline" size="sm" className="mt-2 w-fit" onClick={() => void mutate()}>
                <RotateCw aria-hidden />
                {t("retry")}
              </Button>
            )}
          </AlertDescription>
        </Alert>
      </div>
    );
  }
  if (!ledger) {
    return (
      <div className="space-y-8">
        <Header />
        <Checking text={t("downloading")} />
      </div>
    );
  }
  return <LedgerCheck ledger={ledger} initialReference={initialReference} />;
}

function Header({ raffleTitle }: { raffleTitle?: string }) {
  const t = useTranslations("draw.verify");
  return (
    <header className="space-y-2">
      {raffleTitle && <p className="text-sm font-medium text-muted-foreground">{raffleTitle}</p>}
      <h1 className="text-2xl font-extrabold tracking-tight sm:text-3xl">{t("title")}</h1>
      <p className="text-muted-foreground">{t("subtitle")}</p>
    </header>
  );
}

function Checking({ text }: { text: string }) {
  return (
    <p className="flex items-center gap-2 text-muted-foreground" role="status">
      <Loader2 aria-hidden className="size-4 animate-spin" />
      {text}
    </p>
  );
}

type Check = { kind: "checking" } | { kind: "done"; findings: Finding[] } | { kind: "unreadable" } | { kind: "noCrypto" };

function LedgerCheck({ ledger, initialReference }: { ledger: PublishedLedger; initialReference: string | null }) {
  const t = useTranslations("draw.verify");
  const locale = useLocale();
  // WebCrypto exists only on secure pages (https, or this machine): elsewhere the offline check remains.
  const [check, setCheck] = useState<Check>(() => (globalThis.crypto?.subtle ? { kind: "checking" } : { kind: "noCrypto" }));
  useEffect(() => {
    if (!globalThis.crypto?.subtle) return;
    let current = true;
    checkLedger(ledger).then(
      (findings) => current && setCheck({ kind: "done", findings }),
      // A LedgerFormatError, or a file whose shape is off in a way the check did not name.
      () => current && setCheck({ kind: "unreadable" }),
    );
    return () => {
      current = false;
    };
  }, [ledger]);

  return (
    <div className="space-y-8">
      <Header raffleTitle={ledger.raffleTitle} />
      {check.kind === "checking" && <Checking text={t("checking")} />}
      {(check.kind === "unreadable" || check.kind === "noCrypto") && (
        <Alert variant="destructive" data-testid="ledger-unreadable">
          <AlertCircle aria-hidden />
          <AlertDescription>{check.kind === "unreadable" ? t("unreadable") : t("noCrypto")}</AlertDescription>
        </Alert>
      )}
      {check.kind === "done" && (
        <>
          <FingerprintCheck ledger={ledger} findings={check.findings} />
          <PrizesCheck ledger={ledger} findings={check.findings} />
          <MyNumbers ledger={ledger} findings={check.findings} initialReference={initialReference} />
        </>
      )}
      <Offline ledger={ledger} />
      <details className="rounded-xl border bg-card p-5 text-sm">
        <summary className="cursor-pointer font-semibold">{t("details.title")}</summary>
        <div className="mt-3 space-y-2 leading-relaxed text-muted-foreground">
          <p>{t("details.tree")}</p>
          <p>{t("details.tag")}</p>
          <p>{t("details.proof")}</p>
          {/* The page says 'número al azar público'; the technical name and the exact reading live here. */}
          {ledger.prizes.some((p) => p.source.kind === "beacon") && <p data-testid="details-beacon">{t("details.beacon")}</p>}
          <dl className="grid gap-1 font-mono text-xs">
            <dt className="font-sans text-foreground">{t("details.salt")}</dt>
            <dd className="break-all">{ledger.salt}</dd>
            <dt className="font-sans text-foreground">{t("details.root")}</dt>
            <dd className="break-all">{ledger.root}</dd>
            <dt className="font-sans text-foreground">{t("details.size")}</dt>
            <dd>{formatCount(ledger.size, locale)}</dd>
          </dl>
        </div>
      </details>
    </div>
  );
}

function Verdict({ ok, testId, children }: { ok: boolean; testId: string; children: React.ReactNode }) {
  return (
    <p
      className={cn("flex items-start gap-2 rounded-md p-3 text-sm font-medium", ok ? "bg-success/10 text-success-strong" : "bg-danger/10 text-danger-strong")}
      data-testid={testId}
      data-ok={ok}
    >
      {ok ? <CheckCircle2 aria-hidden className="mt-0.5 size-4 shrink-0" /> : <XCircle aria-hidden className="mt-0.5 size-4 shrink-0" />}
      <span>{children}</span>
    </p>
  );
}

function FingerprintCheck({ ledger, findings }: { ledger: PublishedLedger; findings: Finding[] }) {
  const t = useTranslations("draw.verify.fingerprint");
  const locale = useLocale();
  const label = (n: number) => drawNumberLabel(n, ledger.maxTickets);
  const differs = findings.find((f) => f.kind === "rootDiffers");
  const problems = findings.flatMap((f) => {
    if (f.kind === "notSorted") return [t("notSorted", { position: f.index + 1 })];
    if (f.kind === "notInRaffle") return [t("notInRaffle", { number: label(f.number) })];
    if (f.kind === "sizeDiffers") return [t("sizeDiffers", { published: formatCount(f.published, locale), counted: formatCount(f.counted, locale) })];
    return [];
  });
  return (
    <section aria-labelledby="fingerprint-title" className="space-y-3">
      <h2 id="fingerprint-title" className="flex items-center gap-2 text-xl font-bold">
        <Fingerprint aria-hidden className="size-5 text-primary" />
        {t("title")}
      </h2>
      <p className="text-sm text-muted-foreground">{t("explain")}</p>
      <Verdict ok={!differs} testId="root-status">
        {differs ? t("differs") : t("matches", { date: formatDate(ledger.frozenAt, locale), count: formatCount(ledger.entries.length, locale) })}
      </Verdict>
      {/* One above the other, so the two are read character by character at any width. */}
      <dl className="grid gap-2 text-xs">
        <div className="rounded-md border p-3">
          <dt className="text-muted-foreground">{t("published")}</dt>
          <dd className="break-all font-mono" data-testid="root-published">{ledger.root}</dd>
        </div>
        <div className="rounded-md border p-3">
          <dt className="text-muted-foreground">{t("computed")}</dt>
          <dd className="break-all font-mono" data-testid="root-computed">{differs?.computed ?? ledger.root}</dd>
        </div>
      </dl>
      {problems.length > 0 && (
        <Alert variant="destructive" data-testid="ledger-problems">
          <AlertCircle aria-hidden />
          <AlertTitle>{t("problems")}</AlertTitle>
          <AlertDescription>
            <ul className="list-disc pl-4">
              {problems.map((p) => (
                <li key={p}>{p}</li>
              ))}
            </ul>
          </AlertDescription>
        </Alert>
      )}
    </section>
  );
}

function PrizesCheck({ ledger, findings }: { ledger: PublishedLedger; findings: Finding[] }) {
  const t = useTranslations("draw.verify.prizes");
  const locale = useLocale();
  const stepText = useStepText(ledger.maxTickets);
  const label = (n: number | null) => (n === null ? t("nobody") : drawNumberLabel(n, ledger.maxTickets));
  const prizes = [...ledger.prizes].sort((a, b) => a.position - b.position);
  return (
    <section aria-labelledby="prizes-check-title" className="space-y-3">
      <h2 id="prizes-check-title" className="flex items-center gap-2 text-xl font-bold">
        <Trophy aria-hidden className="size-5 text-primary" />
        {t("title")}
      </h2>
      <p className="text-sm text-muted-foreground">{t("explain")}</p>
      <ol className="space-y-4">
        {prizes.map((prize) => {
          const finding = findings.find((f) => "position" in f && f.position === prize.position);
          const { result } = prize;
          return (
            <li key={prize.position} className="space-y-3 rounded-xl border bg-card p-5 shadow-sm">
              <div>
                <p className="text-xs font-semibold uppercase tracking-wide text-muted-foreground">{t("prize", { position: prize.position })}</p>
                <h3 className="font-semibold">{prize.title}</h3>
              </div>
              <div className="text-sm">
                <PrizeSourceText source={prize.source} />
              </div>
              <TimeOrder ledger={ledger} source={prize.source} position={prize.position} />
              {!result || !finding || finding.kind === "notDrawn" ? (
                <p className="text-sm text-muted-foreground" data-testid={`prize-pending-${prize.position}`}>{t("pending")}</p>
              ) : (
                <>
                  <p className="text-sm">
                    {result.kind === "lottery" ? (
                      <>
                        {t("lotteryResult", { result: result.result, date: formatDate(result.publishedOn, locale) })}{" "}
                        <a href={result.officialUrl} target="_blank" rel="noopener noreferrer" className="inline-flex items-center gap-1 font-medium text-primary underline-offset-4 hover:underline">
                          {t("official")}
                          <ExternalLink aria-hidden className="size-3.5" />
                        </a>
                      </>
                    ) : (
                      <>
                        {t("beaconResult", { round: String(result.round) })}{" "}
                        <a href={drandRoundUrl(result.round)} target="_blank" rel="noopener noreferrer" className="inline-flex items-center gap-1 font-medium text-primary underline-offset-4 hover:underline">
                          {t("drandRecord")}
                          <ExternalLink aria-hidden className="size-3.5" />
                        </a>
                      </>
                    )}
                  </p>
                  {"steps" in finding && (
                    <ol className="list-decimal space-y-1 pl-5 text-sm" data-testid={`prize-steps-${prize.position}`}>
                      {finding.steps.map((step, i) => (
                        <li key={i}>{stepText(step)}</li>
                      ))}
                    </ol>
                  )}
                  <Verdict ok={finding.kind === "winnerConfirmed"} testId={`prize-verdict-${prize.position}`}>
                    {finding.kind === "winnerConfirmed"
                      ? finding.winner === null
                        ? t("confirmedNoWinner")
                        : t("confirmed", { number: label(finding.winner) })
                      : finding.kind === "winnerDiffers"
                        ? t("differs", { published: label(finding.published), computed: label(finding.computed) })
                        : finding.kind === "roundDiffers"
                          ? // Announced 0: the chain has a lottery (or nothing) where the round was used.
                            finding.announced === 0
                            ? t("roundNotAnnounced", { used: String(finding.used) })
                            : t("roundDiffers", { announced: String(finding.announced), used: String(finding.used) })
                          : finding.kind === "randomnessDiffers"
                            ? t("randomnessDiffers")
                            : t("unreadable")}
                  </Verdict>
                </>
              )}
            </li>
          );
        })}
      </ol>
    </section>
  );
}

/**
 * The commitment came first: for each source of the prize's chain, when the list was frozen and
 * when that source drew. A source that drew before the freeze could have been known by then.
 */
function TimeOrder({ ledger, source, position }: { ledger: PublishedLedger; source: PublishedLedger["prizes"][number]["source"]; position: number }) {
  const t = useTranslations("draw.verify.prizes");
  const locale = useLocale();
  const frozen = Date.parse(ledger.frozenAt);
  let sources: Array<{ name: string; at: number }>;
  try {
    sources = chainOf(ledgerRule(ledger), source).map((link) =>
      link.kind === "lottery" ? { name: link.lotteryName, at: lotteryDrawsAt(link) } : { name: t("roundName", { round: String(link.round) }), at: roundTime(link.round) },
    );
  } catch {
    // An unreadable source or format is the checks' to report.
    return null;
  }
  return (
    <ul className="space-y-1 text-sm" data-testid={`prize-time-order-${position}`}>
      {sources.map(({ name, at }, index) => {
        const before = Number.isFinite(frozen) && frozen < at;
        const values = { source: name, drawn: formatDateTime(new Date(at).toISOString(), locale), frozen: formatDateTime(ledger.frozenAt, locale) };
        return (
          <li key={index} className={cn("flex items-start gap-2", before ? "text-muted-foreground" : "font-medium text-destructive")}>
            {before ? <CheckCircle2 aria-hidden className="mt-0.5 size-4 shrink-0 text-emerald-600" /> : <XCircle aria-hidden className="mt-0.5 size-4 shrink-0" />}
            <span>{before ? t("frozenBefore", values) : t("frozenAfter", values)}</span>
          </li>
        );
      })}
    </ul>
  );
}

type Mine = { reference: string; numbers: Array<{ number: number; proven: boolean }> } | { failed: true };

function MyNumbers({ ledger, findings, initialReference }: { ledger: PublishedLedger; findings: Finding[]; initialReference: string | null }) {
  const t = useTranslations("draw.verify.mine");
  const [mine, setMine] = useState<Mine | null>(null);
  const schema = useMemo(() => drawReferenceSchema(t("empty")), [t]);
  const { control, handleSubmit, setError, formState } = useForm<DrawReferenceValues>({
    resolver: zodResolver(schema),
    defaultValues: { reference: initialReference ?? "" },
  });
  // Numbers that won, as recomputed here, to tell a buyer which of theirs did.
  const prizeWonBy = new Map(findings.flatMap((f) => (f.kind === "winnerConfirmed" && f.winner !== null ? [[f.winner, f.position] as const] : [])));
  const label = (n: number) => drawNumberLabel(n, ledger.maxTickets);

  async function submit({ reference: text }: DrawReferenceValues) {
    const input = referenceFromInput(text);
    if (input.kind === "linkWithoutReference") {
      setMine(null);
      setError("reference", { message: t("linkWithoutReference") });
      return;
    }
    try {
      setMine({ reference: input.reference.toUpperCase(), numbers: await numbersOf(ledger, input.reference) });
    } catch {
      setMine({ failed: true });
    }
  }

  // The reference the buyer's e-mail linked is checked once, as if they had typed it.
  const checkedLinked = useRef(false);
  useEffect(() => {
    if (initialReference === null || checkedLinked.current) return;
    checkedLinked.current = true;
    void handleSubmit(submit)();
  });

  const pending = formState.isSubmitting;
  return (
    <section aria-labelledby="mine-title" className="space-y-3">
      <h2 id="mine-title" className="flex items-center gap-2 text-xl font-bold">
        <Search aria-hidden className="size-5 text-primary" />
        {t("title")}
      </h2>
      <p className="text-sm text-muted-foreground">{t("explain")}</p>
      <form onSubmit={handleSubmit(submit)} className="flex flex-col gap-3 rounded-xl border bg-card p-5 shadow-sm sm:flex-row sm:items-start" noValidate>
        <FormField control={control} name="reference" id="draw-reference" label={t("label")} hint={t("hint")} className="flex-1 gap-2">
          {(field) => <Input {...field} autoComplete="off" autoCapitalize="characters" spellCheck={false} placeholder={t("placeholder")} className="font-mono" />}
        </FormField>
        <Button type="submit" size="lg" disabled={pending} className="h-11 sm:mt-[1.625rem] sm:w-48">
          {pending ? <Loader2 aria-hidden className="animate-spin" /> : <Search aria-hidden />}
          {pending ? t("checking") : t("submit")}
        </Button>
      </form>
      <div aria-live="polite">
        {mine && "failed" in mine && (
          <Alert variant="destructive" data-testid="inclusion-result" data-ok={false}>
            <AlertCircle aria-hidden />
            <AlertDescription>{t("failed")}</AlertDescription>
          </Alert>
        )}
        {mine && "numbers" in mine && (
          <div className="space-y-3 rounded-xl border bg-card p-5 text-sm shadow-sm" data-testid="inclusion-result" data-ok={mine.numbers.length > 0 && mine.numbers.every((n) => n.proven)}>
            {mine.numbers.length === 0 ? (
              <p>{t("none", { reference: mine.reference })}</p>
            ) : (
              <>
                <p className="font-medium">{mine.numbers.every((n) => n.proven) ? t("allIncluded", { reference: mine.reference }) : t("someMissing", { reference: mine.reference })}</p>
                <ul className="grid gap-2 sm:grid-cols-2">
                  {mine.numbers.map(({ number, proven }) => {
                    const won = prizeWonBy.get(number);
                    return (
                      <li key={number} className="flex items-center gap-2 rounded-md border p-2" data-testid="my-number" data-proven={proven}>
                        {proven ? <CheckCircle2 aria-hidden className="size-4 shrink-0 text-success-strong" /> : <XCircle aria-hidden className="size-4 shrink-0 text-danger-strong" />}
                        <span className="font-mono font-bold">{label(number)}</span>
                        <span className="text-muted-foreground">{proven ? t("included") : t("notIncluded")}</span>
                        {won !== undefined && <span className="ml-auto font-semibold text-warning-strong">{t("won", { position: won })}</span>}
                      </li>
                    );
                  })}
                </ul>
              </>
            )}
          </div>
        )}
      </div>
    </section>
  );
}

/** The verifier a buyer can keep, and the document it implements, as this build serves them. */
const VERIFIER_SCRIPT = "/api/draw/verifier/verify_draw.py";
const VERIFIER_DOCUMENT = "/api/draw/verifier/VERIFYING.md";

function Offline({ ledger }: { ledger: PublishedLedger }) {
  const t = useTranslations("draw.verify.offline");
  return (
    <section aria-labelledby="offline-title" className="space-y-3 rounded-xl border bg-muted/40 p-5 text-sm">
      <h2 id="offline-title" className="text-lg font-semibold">{t("title")}</h2>
      <p className="text-muted-foreground">{t("text")}</p>
      <code className="block overflow-x-auto rounded bg-background p-3 font-mono text-xs">python3 verify_draw.py {t("file")}</code>
      <p className="text-muted-foreground">{t("python")}</p>
      <div className="flex flex-wrap gap-2">
        <Button asChild variant="outline">
          <a href={swrKeys.drawLedger(ledger.raffleId)} download={`rifa-${ledger.raffleId}-${t("file")}`}>
            <Download aria-hidden />
            {t("download")}
          </a>
        </Button>
        <Button asChild variant="outline">
          <a href={VERIFIER_SCRIPT} download="verify_draw.py" data-testid="verifier-script">
            <Download aria-hidden />
            {t("script")}
          </a>
        </Button>
        <Button asChild variant="ghost">
          <a href={VERIFIER_DOCUMENT} download="VERIFYING.md">
            {t("document")}
          </a>
        </Button>
      </div>
      <p className="text-xs text-muted-foreground">
        {t("rust")} <code className="font-mono">rifa-api verify-draw {t("file")}</code>
      </p>
    </section>
  );
}

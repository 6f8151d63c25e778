"use client";

import { useState } from "react";
import useSWR from "swr";
import { apiJson } from "@/lib/api/fetcher";
import type { AuditPage, AuditVerification, PersonFigures } from "@/lib/api/types";
import { auditQuery, type AuditFilters } from "@/lib/admin/audit";
import type { DayRange } from "@/lib/admin/audit-figures";
import { LIVE_READ, swrKeys, useAdminKey } from "./cache";

/** The first `pages` pages of the trail, each read before the last one's oldest entry. */
async function readPages([url, pages]: readonly [string, number]): Promise<AuditPage> {
  const items: AuditPage["items"] = [];
  let before: number | null = null;
  for (let page = 0; page < pages; page++) {
    const answer: AuditPage = await apiJson<AuditPage>(before === null ? url : `${url}&before=${before}`);
    items.push(...answer.items);
    before = answer.nextBefore ?? null;
    if (before === null) break;
  }
  return { items, nextBefore: before };
}

/**
 * The trail with the filters, newest first, and 'Cargar más' (`loadMore`: one more page, read
 * before `nextBefore`). Its key is the first page's path and the number of pages, so a decision
 * (which makes "/api/admin/audit?" stale, see cache.ts) reads the pages shown again.
 */
export function useAuditTrail(filters: AuditFilters) {
  const url = useAdminKey(swrKeys.audit(auditQuery(filters)));
  // Back to one page when the filters change.
  const [shown, setShown] = useState<{ url: string | null; pages: number }>({ url, pages: 1 });
  if (shown.url !== url) setShown({ url, pages: 1 });
  const pages = shown.url === url ? shown.pages : 1;
  const swr = useSWR<AuditPage, unknown, readonly [string, number] | null>(url ? ([url, pages] as const) : null, readPages, {
    ...LIVE_READ,
    keepPreviousData: true,
  });
  return {
    ...swr,
    loadMore: () => setShown({ url, pages: pages + 1 }),
  };
}

/** Whether the whole chain holds: checked afresh each time the tab opens, and on demand (`mutate`). */
export function useAuditVerification() {
  return useSWR<AuditVerification>(useAdminKey(swrKeys.auditVerification), { revalidateOnMount: true, dedupingInterval: 0 });
}

/** Each person's decisions over the days of `range` (none asked while a day is missing), busiest first. */
export function useAuditFigures(range: DayRange, utcOffsetMinutes: number) {
  const key = range.from && range.to ? swrKeys.auditFigures(range.from, range.to, utcOffsetMinutes) : null;
  return useSWR<PersonFigures[]>(useAdminKey(key), LIVE_READ);
}

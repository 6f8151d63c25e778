"use client";

import { useTranslations } from "next-intl";
import { Table, TableBody, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import type { AdminPurchase } from "@/lib/api/types";
import { PurchaseCard } from "./purchase-card";
import { PurchaseRow } from "./purchase-row";
import type { PurchaseHandlers } from "./types";

/** One page of purchases: cards on phones, a table from `sm` up. */
export function PurchaseList({ mode, items, widthOf, ...handlers }: { mode: "all" | "today"; items: AdminPurchase[]; widthOf: (raffleId: number) => number } & PurchaseHandlers) {
  const t = useTranslations("admin.purchases");
  return (
    <>
      <ul className="divide-y sm:hidden" data-testid={`${mode}-cards`}>
        {items.map((p) => (
          <PurchaseCard key={p.id} purchase={p} width={widthOf(p.raffleId)} {...handlers} />
        ))}
      </ul>
      <div className="max-sm:hidden">
        <Table data-testid={`${mode}-table`}>
          <TableHeader>
            <TableRow>
              <TableHead>{t("customer")}</TableHead>
              <TableHead>{t("raffle")}</TableHead>
              <TableHead>{t("tickets")}</TableHead>
              <TableHead className="text-right">{t("total")}</TableHead>
              <TableHead>{t("method")}</TableHead>
              <TableHead>{t("status")}</TableHead>
              <TableHead className="text-right">{t("actions")}</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {items.map((p) => (
              <PurchaseRow key={p.id} purchase={p} width={widthOf(p.raffleId)} {...handlers} />
            ))}
          </TableBody>
        </Table>
      </div>
    </>
  );
}

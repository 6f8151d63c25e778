"use client";

import { useEffect, useState } from "react";
import { localDay, msUntilNextDay, utcOffsetMinutes } from "@/lib/admin/dates";

/**
 * Today's local day (YYYY-MM-DD) and the browser's offset from UTC, renewed at local midnight
 * (and when the page becomes visible again after a sleep): a panel left open overnight moves
 * "today" and the chart's days on by itself.
 */
export function useToday(): { day: string; offset: number } {
  const [today, setToday] = useState(() => ({ day: localDay(), offset: utcOffsetMinutes() }));
  useEffect(() => {
    const check = () => {
      const day = localDay();
      if (day !== today.day) setToday({ day, offset: utcOffsetMinutes() });
    };
    const timer = window.setTimeout(check, msUntilNextDay() + 500);
    document.addEventListener("visibilitychange", check);
    return () => {
      window.clearTimeout(timer);
      document.removeEventListener("visibilitychange", check);
    };
  }, [today.day]);
  return today;
}

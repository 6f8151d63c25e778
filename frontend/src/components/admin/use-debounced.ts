"use client";

import { useDeferredValue, useEffect, useState } from "react";

/** A value that follows `value` 300 ms after it stops changing (typed filters search once the text settles). */
export function useDebounced<T>(value: T, ms = 300): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = window.setTimeout(() => setSettled(value), ms);
    return () => window.clearTimeout(timer);
  }, [value, ms]);
  return useDeferredValue(settled);
}

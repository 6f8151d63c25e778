/**
 * The page buttons of the admin tables (SPEC §2, §9): up to `size` consecutive pages centred on
 * the current one, shifted to stay within 1..totalPages.
 */
export function pageWindow(current: number, totalPages: number, size = 5): number[] {
  if (totalPages <= 0) return [];
  const page = Math.min(Math.max(1, Math.floor(current) || 1), totalPages);
  const count = Math.min(size, totalPages);
  let start = page - Math.floor((count - 1) / 2);
  start = Math.max(1, Math.min(start, totalPages - count + 1));
  return Array.from({ length: count }, (_, i) => start + i);
}

/** "showing X-Y of N": the 1-based range of a page (0-0 when nothing matches). */
export function pageRange(page: number, pageSize: number, total: number): { from: number; to: number } {
  if (total <= 0) return { from: 0, to: 0 };
  const from = (page - 1) * pageSize + 1;
  return { from: Math.min(from, total), to: Math.min(page * pageSize, total) };
}

/**
 * The page to show once the server says how many pages there are: a page past the end (its last
 * rows were approved away, or a purchase moved out of the filter) goes back to the last page.
 */
export function clampPage(page: number, totalPages: number): number {
  return Math.min(Math.max(1, page), Math.max(1, totalPages));
}

/**
 * Where a move from the page on screen starts: its first purchase, so the server seeks the next
 * page (or the one two away) from there instead of skipping every row before it. None while the
 * page on screen is not the page loaded.
 */
export function anchorOf(page: number, loaded: { page: number; items: { id: number }[] } | undefined): { firstId: number; page: number } | null {
  const first = loaded?.items[0];
  return loaded && loaded.page === page && first ? { firstId: first.id, page } : null;
}

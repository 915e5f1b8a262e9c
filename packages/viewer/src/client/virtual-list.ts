/**
 * A list that creates elements only for the rows in view (plus a margin), so a 1,000-step run's
 * thousands of waterfall rows cost what one screenful costs. Rows have one fixed height; the
 * scroll container keeps a spacer of the full height, so the scrollbar is true to the list.
 */
export interface VirtualList {
  /** Sets the number of rows and redraws what is in view. */
  setCount(count: number): void;
  /** Redraws the rows in view (the data behind them changed). */
  refresh(): void;
  /** Scrolls so that row `index` is in view. */
  reveal(index: number): void;
  readonly element: HTMLElement;
}

export interface VirtualListOptions {
  readonly rowHeight: number;
  /** Rows drawn above and below the visible ones. */
  readonly overscan?: number;
  readonly className: string;
  readonly renderRow: (index: number) => HTMLElement;
}

export function createVirtualList(options: VirtualListOptions): VirtualList {
  const { rowHeight, renderRow } = options;
  const overscan = options.overscan ?? 8;
  const scroller = document.createElement("div");
  scroller.className = `vlist ${options.className}`;
  const spacer = document.createElement("div");
  spacer.className = "vlist-spacer";
  scroller.append(spacer);
  let count = 0;
  let drawn: { first: number; last: number } | null = null;
  let scheduled = false;

  const draw = (force: boolean) => {
    const height = scroller.clientHeight || rowHeight * 20;
    const first = Math.max(0, Math.floor(scroller.scrollTop / rowHeight) - overscan);
    const last = Math.min(count, Math.ceil((scroller.scrollTop + height) / rowHeight) + overscan);
    if (!force && drawn !== null && drawn.first === first && drawn.last === last) return;
    drawn = { first, last };
    const rows: HTMLElement[] = [];
    for (let index = first; index < last; index++) {
      const row = renderRow(index);
      row.style.position = "absolute";
      row.style.top = `${index * rowHeight}px`;
      row.style.height = `${rowHeight}px`;
      row.style.left = "0";
      row.style.right = "0";
      rows.push(row);
    }
    spacer.replaceChildren(...rows);
  };

  scroller.addEventListener("scroll", () => {
    if (scheduled) return;
    scheduled = true;
    requestAnimationFrame(() => {
      scheduled = false;
      draw(false);
    });
  });
  if (typeof ResizeObserver !== "undefined")
    new ResizeObserver(() => draw(false)).observe(scroller);

  return {
    element: scroller,
    setCount(next: number) {
      count = next;
      spacer.style.height = `${count * rowHeight}px`;
      draw(true);
    },
    refresh() {
      draw(true);
    },
    reveal(index: number) {
      const top = index * rowHeight;
      if (
        top < scroller.scrollTop ||
        top + rowHeight > scroller.scrollTop + scroller.clientHeight
      ) {
        scroller.scrollTop = Math.max(0, top - scroller.clientHeight / 3);
      }
      draw(true);
    },
  };
}

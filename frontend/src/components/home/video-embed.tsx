"use client";

import { useState } from "react";
import { Play } from "lucide-react";

/** A video that loads only when played: no third-party bytes on a slow phone until asked. */
export function VideoEmbed({ src, title }: { src: string; title: string }) {
  const [playing, setPlaying] = useState(false);
  return (
    <div className="relative aspect-video overflow-hidden rounded-lg bg-gradient-to-br from-primary to-primary/70">
      {playing ? (
        <iframe
          src={`${src}?autoplay=1&rel=0`}
          title={title}
          className="absolute inset-0 size-full"
          allow="accelerometer; autoplay; encrypted-media; gyroscope; picture-in-picture"
          allowFullScreen
        />
      ) : (
        <button
          type="button"
          onClick={() => setPlaying(true)}
          className="absolute inset-0 flex flex-col items-center justify-center gap-2 text-primary-foreground outline-none focus-visible:ring-[3px] focus-visible:ring-inset focus-visible:ring-ring/60"
        >
          <span className="flex size-14 items-center justify-center rounded-full bg-background/95 text-foreground shadow-lg">
            <Play aria-hidden className="ml-1 size-6 fill-current" />
          </span>
          <span className="px-4 text-center text-sm font-medium">{title}</span>
        </button>
      )}
    </div>
  );
}

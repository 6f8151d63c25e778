import * as React from "react";
import { cn } from "@/lib/utils";

function Separator({ className, decorative = true, ...props }: React.ComponentProps<"div"> & { decorative?: boolean }) {
  return (
    <div
      data-slot="separator"
      role={decorative ? "none" : "separator"}
      className={cn("h-px w-full shrink-0 bg-border", className)}
      {...props}
    />
  );
}

export { Separator };

// Renders public/images/raffle-default.jpg (the API's default raffle image) with Debian's chromium.
// Run once: node scripts/make-default-image.mjs
import { chromium } from "playwright-core";
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--headless", "--no-sandbox", "--disable-gpu"] });
const page = await browser.newPage({ viewport: { width: 1200, height: 750 } });
await page.setContent(`<html><body style="margin:0">
<div style="width:1200px;height:750px;position:relative;overflow:hidden;background:radial-gradient(circle at 20% 20%,#3b3b4f 0,#18181b 55%,#09090b 100%);font-family:sans-serif">
  <div style="position:absolute;inset:0;background-image:radial-gradient(rgba(255,255,255,.06) 2px,transparent 2px);background-size:36px 36px"></div>
  <div style="position:absolute;left:50%;top:50%;transform:translate(-50%,-50%) rotate(-8deg);width:620px;height:300px;border-radius:28px;background:linear-gradient(135deg,#fbbf24,#f59e0b 60%,#d97706);box-shadow:0 40px 80px rgba(0,0,0,.5);display:flex;align-items:center">
    <div style="position:absolute;left:-36px;top:114px;width:72px;height:72px;border-radius:50%;background:#18181b"></div>
    <div style="position:absolute;right:-36px;top:114px;width:72px;height:72px;border-radius:50%;background:#18181b"></div>
    <div style="position:absolute;left:440px;top:24px;bottom:24px;border-left:6px dashed rgba(24,24,27,.35)"></div>
    <div style="margin-left:70px;color:#18181b">
      <div style="font-size:40px;font-weight:800;letter-spacing:12px">RIFA</div>
      <div style="font-size:120px;font-weight:900;font-family:monospace;letter-spacing:4px">0777</div>
    </div>
    <div style="position:absolute;left:490px;color:#18181b;font-size:70px;font-weight:900">★</div>
  </div>
</div></body></html>`);
await page.screenshot({ path: "public/images/raffle-default.jpg", type: "jpeg", quality: 78 });
await browser.close();

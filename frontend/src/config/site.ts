/**
 * Contact details and links shown in the footer and support buttons. Edit them for a
 * deployment; everything else (name, colours, logo) comes from the branding call.
 */
export const site = {
  email: "soporte@rifa.app",
  phone: "+58 412 555 0199",
  whatsappUrl: "https://wa.me/584125550199",
  social: {
    facebook: "https://www.facebook.com/",
    instagram: "https://www.instagram.com/",
    tiktok: "https://www.tiktok.com/",
    whatsappChannel: "https://www.whatsapp.com/channel/",
  },
  /** Official lottery results used to decide winners (how-to-win step 3). */
  lotteryResultsUrl: "https://www.loteriadecaracas.com/",
  /** How-to videos (how-to-win steps 1 and 2); embedded lazily (nothing loads until played). */
  videos: [
    "https://www.youtube-nocookie.com/embed/aqz-KE-bpKQ",
    "https://www.youtube-nocookie.com/embed/ScMzIvxBSi4",
  ],
  /**
   * Static marketing figures (SPEC §1): not computed. Counts are shown as "N+" in the page's
   * number format (50.000+ / 50,000+); the prize figures are text.
   */
  stats: { participants: 50_000, prizes: "2M+", countries: 25 },
  rafflesPageStats: { prizes: "$100K+", participants: 2_000, winners: 500 },
} as const;

/** The chat page's look: a phone-first column (header, status line, sign-in card or Web Chat filling the rest). */
export const CHAT_PAGE_CSS = `
*, *::before, *::after { box-sizing: border-box; }
html, body { height: 100%; margin: 0; }
body {
  display: flex; flex-direction: column; min-height: 100dvh; height: 100dvh; overflow: hidden;
  font-family: system-ui, -apple-system, "Segoe UI", "PingFang SC", "Microsoft YaHei", sans-serif;
  background: #eef1f5; color: #1b2430;
}
[hidden] { display: none !important; }
.bar {
  flex: none; display: flex; align-items: center; justify-content: space-between; gap: 12px;
  padding: 10px 16px; padding-top: max(10px, env(safe-area-inset-top));
  background: #17324d; color: #fff;
}
.brand { display: flex; align-items: center; gap: 10px; min-width: 0; }
.titles { display: flex; flex-direction: column; min-width: 0; line-height: 1.25; }
.mark {
  flex: none; display: inline-grid; place-items: center; width: 30px; height: 30px; border-radius: 8px;
  background: #2f9e6f; font-weight: 700; font-size: 17px;
}
.name { font-size: 17px; font-weight: 600; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.who { font-size: 13px; opacity: .9; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.who:empty { display: none; }
.sign-out {
  flex: none; font: inherit; font-size: 14px; color: #fff; background: transparent;
  border: 1px solid rgba(255,255,255,.7); border-radius: 6px; padding: 6px 12px; cursor: pointer; min-height: 36px;
}
.sign-out:hover, .sign-out:focus-visible { background: rgba(255,255,255,.15); }
.status {
  flex: none; margin: 0; padding: 8px 16px; font-size: 14px; text-align: center;
  background: #fff7d6; color: #5c4400; border-bottom: 1px solid #eadb9c;
}
.status.error { background: #fde7e9; color: #8a1020; border-color: #f1b9c0; }
.status:empty { display: none; }
main { flex: 1; min-height: 0; display: flex; justify-content: center; }
.sign-in {
  align-self: flex-start; width: 100%; max-width: 400px; margin: 32px 16px; padding: 24px;
  background: #fff; border-radius: 12px; box-shadow: 0 1px 3px rgba(16,24,40,.12), 0 1px 2px rgba(16,24,40,.06);
}
.sign-in h1 { margin: 0 0 4px; font-size: 20px; }
.sign-in .hint { margin: 0 0 20px; color: #4a5565; font-size: 14px; }
.sign-in label { display: block; margin: 0 0 6px; font-size: 14px; font-weight: 600; }
.sign-in input {
  display: block; width: 100%; margin: 0 0 16px; padding: 10px 12px; font: inherit; font-size: 16px;
  border: 1px solid #aab3c0; border-radius: 8px; background: #fff; color: inherit;
}
.sign-in input:focus { outline: 2px solid #1f6fb5; outline-offset: 1px; border-color: #1f6fb5; }
.sign-in button {
  width: 100%; padding: 11px 16px; font: inherit; font-size: 16px; font-weight: 600; color: #fff;
  background: #1f6fb5; border: 0; border-radius: 8px; cursor: pointer; min-height: 44px;
}
.sign-in button[disabled] { opacity: .7; cursor: progress; }
.error { margin: -4px 0 16px; padding: 10px 12px; border-radius: 8px; background: #fde7e9; color: #8a1020; font-size: 14px; }
.chat { width: 100%; max-width: 820px; height: 100%; background: #fff; box-shadow: 0 0 0 1px #dde2e8; }
/* Item cards: ok / warn / fail look different (Adaptive Card action styles positive / default / destructive):
   green, Web Chat's white default, red. (Every button also carries its container's style-default class.) */
.chat .ac-pushButton { border-radius: 6px !important; font-weight: 600 !important; min-height: 40px; }
.chat .ac-pushButton.style-positive { background: #107c41 !important; border-color: #107c41 !important; color: #fff !important; }
.chat .ac-pushButton.style-destructive { background: #c42b1c !important; border-color: #c42b1c !important; color: #fff !important; }
.chat .ac-image { border-radius: 6px; }
`;

/** The pages users' browsers see during a sign-in (English and Simplified Chinese, no script, no external assets). */

const escape = (text: string): string =>
  text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)}</title>
<style>
body{font-family:system-ui,-apple-system,"Segoe UI","PingFang SC","Microsoft YaHei",sans-serif;margin:0;padding:2rem 1rem;background:#f5f6f8;color:#1b1f24}
main{max-width:28rem;margin:0 auto;background:#fff;border-radius:12px;padding:1.5rem;box-shadow:0 1px 3px rgba(0,0,0,.12)}
h1{font-size:1.25rem;margin:0 0 1rem}
p{line-height:1.5;margin:.5rem 0}
.code{font-size:2.5rem;letter-spacing:.4rem;font-weight:700;text-align:center;margin:1.25rem 0;font-variant-numeric:tabular-nums}
[lang="zh-CN"]{color:#444}
</style>
</head>
<body><main>${body}</main></body>
</html>`;
}

/** After a successful sign-in: the six-digit code the user types in the chat. */
export function magicCodePage(code: string, provider: string): string {
  return page(
    'Signed in',
    `<h1>Signed in to ${escape(provider)}</h1>
<p>Type this code in the chat to finish signing in:</p>
<p lang="zh-CN">请在聊天中输入以下验证码以完成登录：</p>
<p class="code" data-magic-code="${escape(code)}" aria-label="${escape(code.split('').join(' '))}">${escape(code)}</p>
<p>The code works once, for a few minutes. You can close this tab afterwards.</p>
<p lang="zh-CN">验证码只能使用一次，几分钟内有效。输入后可关闭此页面。</p>`,
  );
}

/** After a successful sign-in whose token went straight to the bot (the browser of the chat signed in). */
export function signedInPage(provider: string): string {
  return page(
    'Signed in',
    `<h1 data-signed-in>Signed in to ${escape(provider)}</h1>
<p>You can close this tab and go back to the chat.</p>
<p lang="zh-CN">登录成功。您可以关闭此页面并返回聊天。</p>`,
  );
}

/** The link is forged, expired or was already used. */
export function expiredPage(): string {
  return page(
    'Sign-in link expired',
    `<h1>This sign-in link has expired or was already used</h1>
<p>Go back to the chat and ask to sign in again.</p>
<p lang="zh-CN">此登录链接已过期或已被使用。请返回聊天重新登录。</p>`,
  );
}

/** The provider refused or could not be reached. */
export function failedPage(): string {
  return page(
    'Sign-in failed',
    `<h1>Sign-in did not complete</h1>
<p>The identity provider refused the sign-in or could not be reached. Go back to the chat and try again.</p>
<p lang="zh-CN">身份提供方拒绝了登录或无法访问。请返回聊天重试。</p>`,
  );
}

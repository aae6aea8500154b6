/**
 * The Amazon Pay simulator's browser side: checkout.js (renderButton, bindChangeAction), the
 * sign-in / wallet page and the payment redirect back to the shop.
 */
import type { FastifyInstance } from 'fastify'
import { escapeHtml, page } from './faults.ts'
import { WALLET, type Session } from './amazon.state.ts'

export interface AmazonBrowserContext {
  app: FastifyInstance
  origin: () => string
  publicKeyId: string
  merchantId: string
  sessions: Map<string, Session>
  buttonSignatureValid(payloadJSON: string, signature: string): boolean
  createSession(payloadJSON: string): Session
  returnFromAmazon(s: Session): void
}

export function amazonBrowserRoutes({
  app,
  origin,
  publicKeyId,
  merchantId,
  sessions,
  buttonSignatureValid,
  createSession,
  returnFromAmazon,
}: AmazonBrowserContext): void {
  // --- Browser side: checkout.js, the Amazon sign-in / wallet page and the payment redirect ---
  app.get('/amazon/checkout.js', async (_req, reply) =>
    reply.type('text/javascript').send(checkoutScript(origin())),
  )
  const walletPage = (s: Session) =>
    page(
      'Amazon Pay',
      `<h1>Amazon Pay</h1><p class="sim">Amazon Pay simulator — signed in as sam.buyer@example.com</p>
<form method="post" action="/amazon/signin/continue"><input type="hidden" name="sessionId" value="${s.id}">
<p>Deliver to: Sam Buyer, 1 Harbour Street, Bristol BS1 4AA</p><fieldset><legend>Pay with</legend>
${WALLET.map((w, i) => `<label><input type="radio" name="card" value="${w.ending}"${(s.card ?? '1111') === w.ending || (!s.card && i === 0) ? ' checked' : ''}> ${escapeHtml(w.label)}</label>`).join('')}
</fieldset><button>Continue to checkout</button></form>`,
    )
  app.post('/amazon/signin', async (req, reply) => {
    const b = (req.body ?? {}) as Record<string, string>
    if (
      b.publicKeyId !== publicKeyId ||
      b.merchantId !== merchantId ||
      !buttonSignatureValid(b.payloadJSON ?? '', b.signature ?? '')
    ) {
      return reply
        .code(401)
        .type('text/html')
        .send(page('Amazon Pay', '<p>Amazon Pay could not verify this request (invalid signature).</p>'))
    }
    return reply.type('text/html').send(walletPage(createSession(b.payloadJSON ?? '{}')))
  })
  app.get('/amazon/change', async (req, reply) => {
    const s = sessions.get((req.query as { amazonCheckoutSessionId?: string }).amazonCheckoutSessionId ?? '')
    return s?.state === 'Open'
      ? reply.type('text/html').send(walletPage(s))
      : reply.code(404).type('text/html').send(page('Amazon Pay', '<p>Session not found.</p>'))
  })
  app.post('/amazon/signin/continue', async (req, reply) => {
    const b = (req.body ?? {}) as Record<string, string>
    const s = sessions.get(b.sessionId ?? '')
    if (!s || s.state !== 'Open')
      return reply.code(404).type('text/html').send(page('Amazon Pay', '<p>Session not found.</p>'))
    s.card = WALLET.some((w) => w.ending === b.card) ? (b.card ?? '1111') : '1111'
    const review = String(
      ((s.payload.webCheckoutDetails ?? {}) as Record<string, string>).checkoutReviewReturnUrl ?? '',
    )
    return reply.redirect(`${review}${review.includes('?') ? '&' : '?'}amazonCheckoutSessionId=${s.id}`)
  })
  app.get('/amazon/pay', async (req, reply) => {
    const s = sessions.get((req.query as { amazonCheckoutSessionId?: string }).amazonCheckoutSessionId ?? '')
    if (!s?.resultReturnUrl)
      return reply.code(404).type('text/html').send(page('Amazon Pay', '<p>Session not found.</p>'))
    returnFromAmazon(s)
    return reply.redirect(
      `${s.resultReturnUrl}${s.resultReturnUrl.includes('?') ? '&' : '?'}amazonCheckoutSessionId=${s.id}`,
    )
  })
}

/** amazon.Pay.renderButton / bindChangeAction stand-in. */
function checkoutScript(origin: string): string {
  return `(function(){
var ORIGIN=${JSON.stringify(origin)};
function post(url,fields){var f=document.createElement('form');f.method='post';f.action=url;f.style.display='none';
  Object.keys(fields).forEach(function(k){var i=document.createElement('input');i.type='hidden';i.name=k;i.value=fields[k];f.appendChild(i)});
  document.body.appendChild(f);f.submit();}
window.amazon={Pay:{
  renderButton:function(sel,cfg){
    var el=document.querySelector(sel); if(!el) throw new Error('Amazon Pay: container not found');
    var c=cfg.createCheckoutSessionConfig||{};
    if(cfg.ledgerCurrency!=='GBP'||cfg.checkoutLanguage!=='en_GB'||!c.payloadJSON||!c.signature) throw new Error('Amazon Pay: invalid button configuration');
    var b=document.createElement('button');b.type='button';b.textContent='Amazon Pay';b.setAttribute('aria-label','Pay with Amazon');
    b.style.cssText='background:#ffd814;border:0;border-radius:4px;padding:.6rem 2rem;font:600 1rem system-ui;cursor:pointer;width:100%';
    b.addEventListener('click',function(){post(ORIGIN+'/amazon/signin',{merchantId:cfg.merchantId,publicKeyId:c.publicKeyId||cfg.publicKeyId,payloadJSON:c.payloadJSON,signature:c.signature,algorithm:c.algorithm||''})});
    el.appendChild(b); return b;
  },
  bindChangeAction:function(sel,opts){var el=document.querySelector(sel); if(!el) return;
    el.addEventListener('click',function(e){e.preventDefault();window.location.href=ORIGIN+'/amazon/change?amazonCheckoutSessionId='+encodeURIComponent(opts.amazonCheckoutSessionId)+'&changeAction='+encodeURIComponent(opts.changeAction||'changeAddress')});}
}};
})();`
}

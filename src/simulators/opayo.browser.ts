/**
 * The Opayo Pi simulator's browser side: the 3-D Secure ACS page and its answer back to the shop,
 * sagepay.js and the drop-in card iframe.
 */
import type { FastifyInstance } from 'fastify'
import { escapeHtml, page } from './faults.ts'
import { PREFIX, type Tx } from './opayo.state.ts'

export function opayoBrowserRoutes({
  app,
  origin,
  txs,
}: {
  app: FastifyInstance
  origin: () => string
  txs: Map<string, Tx>
}): void {
  // --- Browser side: the ACS (3-D Secure challenge) ---
  app.post('/opayo/acs', async (req, reply) => {
    const b = (req.body ?? {}) as Record<string, string>
    let creq: { acsTransID?: string } = {}
    try {
      creq = JSON.parse(Buffer.from(b.creq ?? '', 'base64url').toString('utf8')) as typeof creq
    } catch {
      /* shown below */
    }
    const tx = [...txs.values()].find((t) => t.challenge?.acsTransID === creq.acsTransID)
    if (!tx)
      return reply
        .code(400)
        .type('text/html')
        .send(page('Authentication error', '<p>Invalid challenge request.</p>'))
    const hidden = `<input type="hidden" name="acsTransID" value="${escapeHtml(creq.acsTransID ?? '')}"><input type="hidden" name="threeDSSessionData" value="${escapeHtml(b.threeDSSessionData ?? '')}">`
    return reply.type('text/html').send(
      page(
        'Verify your payment',
        `<h1>Verify your payment</h1><p class="sim">Opayo simulator: 3-D Secure challenge</p><p>Amount: ${(tx.amount / 100).toFixed(2)}</p>
<form method="post" action="/opayo/acs/answer">${hidden}<button name="result" value="Y">Authenticate</button><button name="result" value="N">Fail authentication</button></form>`,
      ),
    )
  })

  app.post('/opayo/acs/answer', async (req, reply) => {
    const b = (req.body ?? {}) as Record<string, string>
    const tx = [...txs.values()].find((t) => t.challenge?.acsTransID === b.acsTransID)
    if (!tx?.notificationURL || !tx.challenge)
      return reply.code(400).type('text/html').send(page('Authentication error', '<p>Unknown challenge.</p>'))
    tx.challenge.result = b.result === 'Y' ? 'Y' : 'N'
    const cres = Buffer.from(
      JSON.stringify({
        messageType: 'CRes',
        messageVersion: '2.1.0',
        acsTransID: tx.challenge.acsTransID,
        transStatus: tx.challenge.result,
      }),
    ).toString('base64url')
    return reply
      .type('text/html')
      .send(
        page(
          'Returning to the shop',
          `<form id="f" method="post" action="${escapeHtml(tx.notificationURL)}"><input type="hidden" name="cres" value="${cres}"><input type="hidden" name="threeDSSessionData" value="${escapeHtml(b.threeDSSessionData ?? '')}"><noscript><button>Continue</button></noscript></form><script>document.getElementById('f').submit()</script>`,
        ),
      )
  })

  // --- Browser side: sagepay.js and the drop-in card iframe ---
  app.get(`${PREFIX}/js/sagepay.js`, async (_req, reply) =>
    reply.type('text/javascript').send(sagepayScript(origin())),
  )
  app.get('/opayo/dropin', async (req, reply) => {
    const q = req.query as { msk?: string; reusable?: string }
    return reply.type('text/html').send(dropinPage(q.msk ?? '', q.reusable ?? ''))
  })
}

/** sagepay.js stand-in: sagepayCheckout(...).form()/.tokenise()/.destroy() with the card form in our iframe. */
function sagepayScript(origin: string): string {
  return `(function(){
var ORIGIN=${JSON.stringify(origin)};
window.sagepayCheckout=function(opts){
  var frame=null,listener=null;
  function container(){return document.querySelector(opts.containerSelector||'#sp-container')}
  return {
    form:function(){
      var c=container(); if(!c) throw new Error('sagepayCheckout: container not found');
      frame=document.createElement('iframe');
      frame.title='Card details';frame.style.border='0';frame.style.width='100%';frame.style.height=opts.reusableCardIdentifier?'110px':'300px';
      frame.src=ORIGIN+'/opayo/dropin?msk='+encodeURIComponent(opts.merchantSessionKey)+(opts.reusableCardIdentifier?'&reusable='+encodeURIComponent(opts.reusableCardIdentifier):'');
      c.appendChild(frame);
      listener=function(e){ if(e.origin!==ORIGIN||!e.data||e.data.source!=='sagepay-sim') return;
        if(opts.onTokenise) opts.onTokenise(e.data.result); };
      window.addEventListener('message',listener);
    },
    tokenise:function(){ if(frame&&frame.contentWindow) frame.contentWindow.postMessage({source:'sagepay-sim',action:'tokenise'},ORIGIN); },
    destroy:function(){ if(listener) window.removeEventListener('message',listener); if(frame&&frame.parentNode) frame.parentNode.removeChild(frame); frame=null; }
  };
};
window.sagepayOwnForm=function(){throw new Error('The shop uses the drop-in form only (PCI SAQ A)')};
})();`
}

function dropinPage(msk: string, reusable: string): string {
  const fields = reusable
    ? '<label>Security code <input id="cvv" inputmode="numeric" autocomplete="cc-csc" maxlength="4"></label>'
    : `<label>Name on card <input id="name" autocomplete="cc-name"></label>
<label>Card number <input id="number" inputmode="numeric" autocomplete="cc-number"></label>
<label>Expiry (MMYY) <input id="expiry" inputmode="numeric" autocomplete="cc-exp" maxlength="4"></label>
<label>Security code <input id="cvv" inputmode="numeric" autocomplete="cc-csc" maxlength="4"></label>`
  return page(
    'Card details',
    `${fields}<p class="sim">Opayo simulator</p><script>
var MSK=${JSON.stringify(msk)},REUSABLE=${JSON.stringify(reusable)},parentOrigin=document.referrer?new URL(document.referrer).origin:'*';
function v(id){var e=document.getElementById(id);return e?e.value.trim():''}
function send(result){parent.postMessage({source:'sagepay-sim',result:result},parentOrigin)}
window.addEventListener('message',function(e){ if(!e.data||e.data.action!=='tokenise') return;
  var url,body;
  if(REUSABLE){url='/opayo/api/v1/card-identifiers/'+encodeURIComponent(REUSABLE)+'/security-code';body={securityCode:v('cvv')}}
  else{url='/opayo/api/v1/card-identifiers';body={cardDetails:{cardholderName:v('name'),cardNumber:v('number').replace(/\\s+/g,''),expiryDate:v('expiry'),securityCode:v('cvv')}}}
  fetch(url,{method:'POST',headers:{'content-type':'application/json',authorization:'Bearer '+MSK},body:JSON.stringify(body)})
  .then(function(r){return r.text().then(function(t){return {status:r.status,json:t?JSON.parse(t):null}})})
  .then(function(r){
    if(r.status===201) send({success:true,cardIdentifier:r.json.cardIdentifier,cardType:r.json.cardType});
    else if(r.status===204) send({success:true,cardIdentifier:REUSABLE});
    else send({success:false,httpErrorCode:r.status,errors:(r.json&&r.json.errors)||[{code:r.json&&r.json.code,message:r.json&&r.json.description}]});
  }).catch(function(){send({success:false,errors:[{code:'network',message:'Network error'}]})});
});
</script>`,
  )
}

/**
 * The PayPal simulator's browser side: the approval page (approve, a card that declines, cancel),
 * its answer back to the shop (redirect or window message) and the JS SDK stand-in
 * (paypal.Buttons).
 */
import { createHash } from 'node:crypto'
import { escapeHtml, page } from './faults.ts'
import { PREFIX, type Order, type PaypalContext } from './paypal.state.ts'

export function paypalBrowserRoutes(sim: PaypalContext): { approve: (o: Order, decline: boolean) => void } {
  const { app, origin, clientId, orders, view, emit, amountOf, currencyOf } = sim

  // --- Browser side: approval page and the JS SDK stand-in ---
  const approve = (o: Order, decline: boolean) => {
    o.status = 'APPROVED'
    o.approvedAmount = amountOf(o)
    o.declineNext = decline
    o.payer = {
      name: { given_name: 'Sam', surname: 'Buyer' },
      email_address: 'sb-buyer@example.com',
      payer_id: 'SIMPAYER01',
      // Shared when the merchant's account asks for the buyer's phone (as the demo's does).
      phone: { phone_type: 'MOBILE', phone_number: { national_number: '07700900456' } },
      address: { country_code: currencyOf(o) === 'USD' ? 'US' : 'GB' },
    }
    const opts = (
      ((o.body.purchase_units as Record<string, unknown>[])[0]?.shipping as {
        options?: { id: string; selected: boolean }[]
      }) ?? {}
    ).options
    // The sandbox buyer lives where the shop sells: a US address for a dollar order (Northgate
    // delivers only there), a UK one otherwise.
    const currency = currencyOf(o)
    o.shipping = {
      name: { full_name: 'Sam Buyer' },
      address:
        currency === 'USD'
          ? {
              address_line_1: '1 Harbor Street',
              admin_area_2: 'Portland',
              admin_area_1: 'ME',
              postal_code: '04101',
              country_code: 'US',
            }
          : {
              address_line_1: '1 Harbour Street',
              admin_area_2: 'Bristol',
              postal_code: 'BS1 4AA',
              country_code: 'GB',
            },
      ...(opts ? { options: opts } : {}),
    }
    void emit('CHECKOUT.ORDER.APPROVED', view(o))
  }
  app.get(`${PREFIX}/checkoutnow`, async (req, reply) => {
    const q = req.query as { token?: string; redirect?: string }
    const o = orders.get(q.token ?? '')
    if (!o)
      return reply.code(404).type('text/html').send(page('PayPal', '<p>This order is not available.</p>'))
    const amount = ((o.body.purchase_units as Record<string, unknown>[])[0]?.amount ?? {}) as {
      value?: string
      currency_code?: string
    }
    return reply.type('text/html').send(
      page(
        'PayPal',
        `<h1>PayPal</h1><p class="sim">PayPal simulator — signed in as sb-buyer@example.com</p><p>Pay ${escapeHtml(amount.currency_code ?? '')} ${escapeHtml(amount.value ?? '')}</p>
<form method="post" action="${PREFIX}/checkoutnow/answer"><input type="hidden" name="token" value="${escapeHtml(o.id)}"><input type="hidden" name="redirect" value="${escapeHtml(q.redirect ?? '')}">
<button name="answer" value="approve">Pay with balance</button><button name="answer" value="decline">Card that declines</button><button name="answer" value="cancel">Cancel and return</button></form>`,
      ),
    )
  })
  app.post(`${PREFIX}/checkoutnow/answer`, async (req, reply) => {
    const b = (req.body ?? {}) as Record<string, string>
    const o = orders.get(b.token ?? '')
    if (!o)
      return reply.code(404).type('text/html').send(page('PayPal', '<p>This order is not available.</p>'))
    if (b.answer !== 'cancel') approve(o, b.answer === 'decline')
    const message = {
      source: 'paypal-sim',
      orderID: o.id,
      payerID: b.answer === 'cancel' ? null : 'SIMPAYER01',
      approved: b.answer !== 'cancel',
    }
    if (b.redirect) {
      const target = b.answer === 'cancel' ? o.cancelUrl : o.returnUrl
      if (target)
        return reply.redirect(
          `${target}${target.includes('?') ? '&' : '?'}token=${o.id}${b.answer === 'cancel' ? '' : '&PayerID=SIMPAYER01'}`,
        )
    }
    return reply
      .type('text/html')
      .send(
        page(
          'PayPal',
          `<p>Returning to the shop…</p><script>if(window.opener){window.opener.postMessage(${JSON.stringify(message)},'*');window.close()}</script>`,
        ),
      )
  })
  app.get(`${PREFIX}/sdk/js`, async (req, reply) => {
    const q = req.query as Record<string, string>
    if (q['client-id'] !== clientId)
      return reply.code(400).type('text/javascript').send('throw new Error("PayPal: invalid client-id")')
    return reply.type('text/javascript').send(sdkScript(origin()))
  })

  return { approve }
}

/** window.paypal.Buttons stand-in: createOrder → approval popup → onApprove / onCancel / onError. */
function sdkScript(origin: string): string {
  const digest = createHash('sha256').update(origin).digest('hex').slice(0, 8)
  return `(function(){
var ORIGIN=${JSON.stringify(origin)};
function Buttons(opts){
  var el=null;
  function start(){
    var popup=window.open('about:blank','paypal-sim-${digest}','width=480,height=640');
    Promise.resolve().then(function(){return opts.createOrder({paymentSource:'paypal'},{})}).then(function(orderID){
      if(!orderID) throw new Error('createOrder returned no order id');
      if(popup) popup.location.href=ORIGIN+'/paypal/checkoutnow?token='+encodeURIComponent(orderID);
      function onMessage(e){ if(e.origin!==ORIGIN||!e.data||e.data.source!=='paypal-sim'||e.data.orderID!==orderID) return;
        window.removeEventListener('message',onMessage);
        if(!e.data.approved){ if(opts.onCancel) opts.onCancel({orderID:orderID}); return; }
        var actions={restart:function(){start()},redirect:function(u){window.location.href=u}};
        Promise.resolve(opts.onApprove&&opts.onApprove({orderID:orderID,payerID:e.data.payerID,paymentSource:'paypal'},actions))
          .catch(function(err){ if(opts.onError) opts.onError(err) });
      }
      window.addEventListener('message',onMessage);
    }).catch(function(err){ if(popup) popup.close(); if(opts.onError) opts.onError(err) });
  }
  return {
    isEligible:function(){return true},
    render:function(target){
      el=typeof target==='string'?document.querySelector(target):target;
      if(!el) return Promise.reject(new Error('PayPal: container not found'));
      var b=document.createElement('button');b.type='button';b.textContent='PayPal';b.setAttribute('aria-label','Pay with PayPal');
      b.style.cssText='background:#ffc439;border:0;border-radius:4px;padding:.6rem 2rem;font:600 1rem system-ui;cursor:pointer;width:100%';
      b.addEventListener('click',function(){ if(opts.onClick){ var r=opts.onClick({fundingSource:'paypal'},{resolve:function(){return true},reject:function(){return false}}); if(r===false) return; } start(); });
      el.appendChild(b); if(opts.onInit) opts.onInit({}, {enable:function(){},disable:function(){}});
      return Promise.resolve();
    },
    close:function(){ if(el) el.innerHTML=''; return Promise.resolve(); }
  };
}
window.paypal={Buttons:Buttons,version:'sim'};
})();`
}

/** The builders' plans (signs, banners, nameplates): their selectors and options with costs. */
import type { BuilderPlan } from './vocabulary.types.ts'

export const SIGN_BUILDER: BuilderPlan = {
  selectors: [
    {
      name: 'Material',
      items: [
        ['Rigid PVC 1mm', 0],
        ['Self-Adhesive Vinyl', 0],
        ['Photoluminescent PVC', 420],
        ['Aluminium Composite 3mm', 650],
      ],
    },
  ],
  options: [
    {
      name: 'Finishing',
      items: [
        ['Drilled holes (4 corners)', 150],
        ['Anti-graffiti lamination', 220],
        ['Rounded corners', 90],
      ],
    },
    {
      name: 'Fixings',
      items: [
        ['Sticky pads', 120],
        ['Screws and caps', 180],
        ['Cable ties', 80],
      ],
    },
  ],
}

export const BANNER_BUILDER: BuilderPlan = {
  selectors: [
    {
      name: 'Material',
      items: [
        ['PVC 440gsm', 0],
        ['Mesh 380gsm (windy sites)', 500],
        ['Fabric 220gsm', 900],
      ],
    },
  ],
  options: [
    {
      name: 'Finishing',
      items: [
        ['Eyelets every 500mm', 0],
        ['Hemmed edges', 400],
        ['Pole pockets', 600],
      ],
    },
    { name: 'Fixings', items: [['Bungee ties (pack of 10)', 350]] },
  ],
}

export const NAMEPLATE_BUILDER: BuilderPlan = {
  selectors: [
    {
      name: 'Finish',
      items: [
        ['Brushed silver', 0],
        ['Brushed gold', 250],
        ['White with black text', 0],
        ['Black with white text', 0],
      ],
    },
  ],
  options: [
    {
      name: 'Fixing',
      items: [
        ['Self-adhesive backing', 90],
        ['Screw holes', 60],
        ['Aluminium frame', 450],
      ],
    },
  ],
}

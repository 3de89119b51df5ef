// Fixture pages shaped like the public templates designers really use (issue #12): a Bootstrap
// agency page and a creative landing page with fixed navbars that change on scroll, an HTML5 UP
// style dark theme with a 16-field form, and TodoMVC built from web components with 300 items.
// What matters is kept from the originals: fixed layers that change on scroll (with their CSS
// transitions), `opacity: 0` hover overlays with SVG icons over photos, open shadow roots, a host
// taller than the viewport, photo heroes under gradients, colours that come from background
// images, pages nine viewports long. Photos are generated (test/support/png.js photoPng), so
// nothing comes from the network. Served by the e2e page server and the bench's page server.
import { photoPng } from './png.js';

const html = (title, head, body) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title>${head}</head>${body}</html>`;

const photo = (seed, w, h) => `/real/photo.png?seed=${seed}&amp;w=${w}&amp;h=${h}`;
const cssPhoto = (seed, w, h) => `url('/real/photo.png?seed=${seed}&w=${w}&h=${h}')`;

// Font Awesome-like icons (simple paths), as the templates inline them.
const ICON_PLUS =
  '<svg class="svg-inline--fa fa-plus" viewBox="0 0 448 512" width="48" height="48" aria-hidden="true"><path fill="currentColor" d="M416 208H272V64c0-17.7-14.3-32-32-32h-32c-17.7 0-32 14.3-32 32v144H32c-17.7 0-32 14.3-32 32v32c0 17.7 14.3 32 32 32h144v144c0 17.7 14.3 32 32 32h32c17.7 0 32-14.3 32-32V304h144c17.7 0 32-14.3 32-32v-32c0-17.7-14.3-32-32-32z"/></svg>';
const ICON_CIRCLE =
  '<svg viewBox="0 0 512 512" width="64" height="64" aria-hidden="true"><circle cx="256" cy="256" r="256" fill="#ffc800"/><path fill="#fff" d="M160 176h192v32H160zm0 64h192v32H160zm0 64h128v32H160z"/></svg>';

/** Scroll handler shared by the fixed navbars: a class while the page is scrolled past 100 px. */
const navbarScript = (id, cls, inverse = false) =>
  `<script>(() => { const nav = document.getElementById('${id}');
  const update = () => nav.classList.toggle('${cls}', ${inverse ? 'window.scrollY <= 100' : 'window.scrollY > 100'});
  update(); document.addEventListener('scroll', update, { passive: true }); })();</script>`;

// ── Agency (Start Bootstrap "Agency"-like) ────────────────────────────────────────────────────

const AGENCY_CSS = `<style>
*,*::before,*::after{box-sizing:border-box}
html{scroll-behavior:smooth}
body{margin:0;font-family:"Roboto Slab","DejaVu Serif",serif;font-size:1rem;line-height:1.5;color:#212529;background:#fff}
h1,h2,h3,h4,.navbar{font-family:Montserrat,"DejaVu Sans",sans-serif}
a{color:#ffc800}
.container{max-width:1140px;margin:0 auto;padding:0 12px}
#mainNav{position:fixed;top:0;left:0;right:0;z-index:1030;padding-top:24px;padding-bottom:24px;background-color:transparent;transition:padding-top .3s ease-in-out,padding-bottom .3s ease-in-out}
#mainNav .container{display:flex;align-items:center;justify-content:space-between}
#mainNav .navbar-brand{color:#ffc800;font-size:1.5rem;font-weight:700;text-decoration:none;letter-spacing:.0625em}
#mainNav .navbar-brand .brand-tag{font-size:.8rem;color:#fff;margin-left:6px;letter-spacing:.1em}
#mainNav .navbar-nav{display:flex;gap:8px;list-style:none;margin:0;padding:0}
#mainNav .nav-link{display:block;padding:8px 12px;color:#fff;text-decoration:none;font-size:.95rem;font-weight:400;letter-spacing:.0625em;text-transform:uppercase}
#mainNav .nav-link:hover{color:#ffc800}
#mainNav.navbar-shrink{padding-top:8px;padding-bottom:8px;background-color:#212529}
header.masthead{padding-top:168px;padding-bottom:140px;text-align:center;color:#fff;background-image:${cssPhoto(1, 1600, 1000)};background-repeat:no-repeat;background-attachment:scroll;background-position:center center;background-size:cover}
.masthead-subheading{font-size:1.5rem;font-style:italic;line-height:1.5rem;margin-bottom:25px}
.masthead-heading{font-size:3.25rem;font-weight:700;line-height:3.25rem;margin-bottom:50px;text-transform:uppercase}
.btn{display:inline-block;font-family:Montserrat,"DejaVu Sans",sans-serif;font-weight:700;text-transform:uppercase;padding:16px 40px;border-radius:6px;text-decoration:none}
.btn-primary{background:#ffc800;color:#fff}
section{padding:128px 0}
.bg-light{background-color:#f8f9fa}
.section-heading{font-size:2.5rem;margin:0 0 16px;text-transform:uppercase;text-align:center}
.section-subheading{font-size:1rem;font-weight:400;font-style:italic;margin-bottom:64px;text-align:center;color:#6c757d}
.row{display:grid;gap:24px}
.services{grid-template-columns:repeat(3,1fr);text-align:center}
.services p{color:#6c757d}
.portfolio-grid{grid-template-columns:repeat(3,1fr)}
.portfolio-item{max-width:26rem;margin:0 auto}
.portfolio-item .portfolio-link{position:relative;display:block;margin:0 auto}
.portfolio-item .portfolio-link .portfolio-hover{display:flex;position:absolute;width:100%;height:100%;background-color:rgba(255,200,0,.9);align-items:center;justify-content:center;opacity:0;transition:opacity ease-in-out .25s}
.portfolio-item .portfolio-link .portfolio-hover .portfolio-hover-content{font-size:1.25rem;color:#fff}
.portfolio-item .portfolio-link:hover .portfolio-hover{opacity:1}
.img-fluid{max-width:100%;height:auto;display:block}
.portfolio-caption{padding:24px;text-align:center;background-color:#fff}
.portfolio-caption-heading{font-size:1.5rem;font-family:Montserrat,"DejaVu Sans",sans-serif;font-weight:700;margin-bottom:0}
.portfolio-caption-subheading{font-style:italic;font-size:1rem;color:#6c757d}
.timeline{position:relative;padding:0;list-style:none;max-width:900px;margin:0 auto}
.timeline::before{position:absolute;top:0;bottom:0;left:50%;width:2px;margin-left:-1px;content:"";background-color:#e9ecef}
.timeline>li{position:relative;min-height:170px;margin-bottom:80px;display:grid;grid-template-columns:1fr 170px 1fr;gap:24px;align-items:center}
.timeline .timeline-image{width:170px;height:170px;border-radius:100%;border:7px solid #e9ecef;background:${cssPhoto(11, 340, 340)} center/cover;position:relative;z-index:1}
.timeline .timeline-panel h4{margin:0}
.timeline li:nth-child(even) .timeline-panel{grid-column:3}
.timeline li:nth-child(even) .timeline-image{grid-column:2;grid-row:1}
.team-member{text-align:center}
.team-member img{width:14rem;height:14rem;border:8px solid rgba(0,0,0,.1);border-radius:50%;object-fit:cover}
.team-grid{grid-template-columns:repeat(3,1fr)}
.clients{padding:200px 12px;display:grid;grid-template-columns:repeat(4,1fr);gap:24px}
.clients div{height:48px;border-radius:8px;background:#e9ecef}
section#contact{background-color:#212529;background-image:${cssPhoto(21, 1200, 700)};background-repeat:no-repeat;background-position:center;background-size:cover}
section#contact .section-heading{color:#fff}
.contact-grid{grid-template-columns:1fr 1fr}
.contact-grid input,.contact-grid textarea{width:100%;padding:20px;font-family:inherit;font-size:1rem;border:0;border-radius:4px;margin-bottom:24px}
.contact-grid textarea{height:100%;min-height:200px}
footer{padding:24px 0;text-align:center;font-size:.9rem}
</style>`;

function agencyBody() {
  const services = ['E-Commerce', 'Responsive Design', 'Web Security']
    .map(
      (s) =>
        `<div class="service">${ICON_CIRCLE}<h4 class="my-3">${s}</h4><p>Lorem ipsum dolor sit amet, consectetur adipisicing elit. Minima maxime quam architecto quo inventore harum ex magni, dicta impedit.</p></div>`,
    )
    .join('');
  const work = ['Threads', 'Explore', 'Finish', 'Lines', 'Southwest', 'Window', 'Harbor', 'Signal', 'Meadow'];
  const portfolio = work
    .map(
      (name, i) =>
        `<div class="portfolio-item" id="portfolio-${i + 1}"><a class="portfolio-link" href="#portfolioModal${i + 1}"><div class="portfolio-hover"><div class="portfolio-hover-content">${ICON_PLUS}</div></div><img class="img-fluid" src="${photo(i + 2, 600, 450)}" width="600" height="450" alt="${name}"></a><div class="portfolio-caption"><div class="portfolio-caption-heading">${name}</div><div class="portfolio-caption-subheading">${i % 2 ? 'Graphic Design' : 'Illustration'}</div></div></div>`,
    )
    .join('');
  const timeline = ['2009-2011', 'March 2011', 'December 2015', 'July 2020', 'Be Part Of Our Story!']
    .map(
      (when) =>
        `<li><div class="timeline-panel"><h4>${when}</h4><h4 class="subheading">Our Humble Beginnings</h4><p class="text-muted">Lorem ipsum dolor sit amet, consectetur adipisicing elit. Sunt ut voluptatum eius sapiente, totam reiciendis temporibus qui quibusdam, recusandae sit vero unde.</p></div><div class="timeline-image"></div></li>`,
    )
    .join('');
  const team = ['Parveen Anand', 'Diana Petersen', 'Larry Parker']
    .map(
      (n, i) =>
        `<div class="team-member"><img src="${photo(31 + i, 400, 400)}" width="224" height="224" alt="${n}"><h4>${n}</h4><p class="text-muted">Lead Designer</p></div>`,
    )
    .join('');
  return `<body id="page-top">
<nav class="navbar" id="mainNav"><div class="container"><a class="navbar-brand" href="#page-top">ARGO<span class="brand-tag">STUDIO</span></a>
<ul class="navbar-nav"><li><a class="nav-link" href="#services">Services</a></li><li><a class="nav-link" href="#portfolio">Portfolio</a></li><li><a class="nav-link" href="#about">About</a></li><li><a class="nav-link" href="#team">Team</a></li><li><a class="nav-link" href="#contact">Contact</a></li></ul></div></nav>
<header class="masthead"><div class="container"><div class="masthead-subheading">Welcome To Our Studio!</div><div class="masthead-heading">It's Nice To Meet You</div><a class="btn btn-primary btn-xl" href="#services">Tell Me More</a></div></header>
<section class="page-section" id="services"><div class="container"><h2 class="section-heading">Services</h2><h3 class="section-subheading">Lorem ipsum dolor sit amet consectetur.</h3><div class="row services">${services}</div></div></section>
<section class="page-section bg-light" id="portfolio"><div class="container"><h2 class="section-heading">Portfolio</h2><h3 class="section-subheading">Lorem ipsum dolor sit amet consectetur.</h3><div class="row portfolio-grid">${portfolio}</div></div></section>
<section class="page-section" id="about"><div class="container"><h2 class="section-heading">About</h2><h3 class="section-subheading">Lorem ipsum dolor sit amet consectetur.</h3><ul class="timeline">${timeline}</ul></div></section>
<section class="page-section bg-light" id="team"><div class="container"><h2 class="section-heading">Our Amazing Team</h2><h3 class="section-subheading">Lorem ipsum dolor sit amet consectetur.</h3><div class="row team-grid">${team}</div></div></section>
<div class="container clients"><div></div><div></div><div></div><div></div></div>
<section class="page-section" id="contact"><div class="container"><h2 class="section-heading">Contact Us</h2><h3 class="section-subheading">Lorem ipsum dolor sit amet consectetur.</h3><form class="row contact-grid" onsubmit="return false"><div><input id="name" type="text" placeholder="Your Name *"><input id="email" type="email" placeholder="Your Email *"><input id="phone" type="tel" placeholder="Your Phone *"></div><div><textarea id="message" placeholder="Your Message *"></textarea></div></form></div></section>
<footer class="footer"><div class="container">Copyright &copy; Argo Studio 2024</div></footer>
${navbarScript('mainNav', 'navbar-shrink')}
</body>`;
}

// ── Creative (Start Bootstrap "Creative"-like) ────────────────────────────────────────────────

const CREATIVE_CSS = `<style>
*,*::before,*::after{box-sizing:border-box}
body{margin:0;font-family:"Merriweather","DejaVu Serif",serif;font-size:16px;line-height:1.5;color:#212529}
h1,h2,.navbar,.btn{font-family:"Merriweather Sans","DejaVu Sans",sans-serif}
.container{max-width:1140px;margin:0 auto;padding:0 12px}
#mainNav{position:fixed;top:0;left:0;right:0;z-index:1030;padding:16px 0;background-color:transparent;box-shadow:none;transition:background-color .2s ease}
#mainNav .container{display:flex;justify-content:space-between;align-items:center}
#mainNav .navbar-brand{font-weight:700;color:rgba(255,255,255,.7);text-decoration:none;font-size:1.25rem}
#mainNav ul{display:flex;list-style:none;margin:0;padding:0}
#mainNav .nav-link{display:block;padding:8px 16px;color:rgba(255,255,255,.7);font-weight:700;font-size:.9rem;text-decoration:none}
#mainNav.navbar-scrolled{background-color:#fff;box-shadow:0 .5rem 1rem rgba(0,0,0,.15)}
#mainNav.navbar-scrolled .navbar-brand,#mainNav.navbar-scrolled .nav-link{color:#212529}
header.masthead{padding-top:160px;padding-bottom:88px;min-height:40rem;height:100vh;text-align:center;background:linear-gradient(to bottom,rgba(92,77,66,.8) 0%,rgba(92,77,66,.8) 100%),${cssPhoto(4, 1600, 1000)};background-position:center;background-repeat:no-repeat;background-attachment:scroll;background-size:cover}
header.masthead h1{font-size:3rem;color:#fff;max-width:780px;margin:0 auto}
header.masthead hr.divider{height:4px;max-width:56px;background-color:#f4623a;border:0;margin:24px auto;opacity:1}
header.masthead p{color:rgba(255,255,255,.75);font-size:1.15rem;max-width:640px;margin:0 auto 40px}
.btn{display:inline-block;padding:20px 40px;border-radius:10rem;font-weight:700;font-size:.85rem;text-transform:uppercase;text-decoration:none}
.btn-primary{background:#f4623a;color:#fff}
.btn-light{background:#fff;color:#212529}
section{padding:128px 0}
.bg-primary{background-color:#f4623a;color:#fff;text-align:center}
.bg-primary h2{font-size:2.5rem;margin:0}
.bg-primary hr{height:4px;max-width:56px;border:0;background:#fff;margin:24px auto}
.text-white-75{color:rgba(255,255,255,.75)}
.services{display:grid;grid-template-columns:repeat(4,1fr);gap:24px;text-align:center}
.services .icon{width:56px;height:56px;border-radius:50%;background:#f4623a;margin:0 auto 16px}
#portfolio{padding:0}
.portfolio-grid{display:grid;grid-template-columns:repeat(3,1fr)}
.portfolio-box{position:relative;display:block;overflow:hidden}
.portfolio-box img{display:block;width:100%;height:auto}
.portfolio-box .portfolio-box-caption{display:flex;align-items:center;justify-content:center;flex-direction:column;width:100%;height:100%;position:absolute;bottom:0;text-align:center;opacity:0;color:#fff;background:rgba(244,98,58,.9);transition:opacity .25s ease}
.portfolio-box:hover .portfolio-box-caption{opacity:1}
.bg-dark{background:#212529;color:#fff;text-align:center;padding:96px 0}
#contact{text-align:center}
footer{background:#f8f9fa;padding:48px 0;text-align:center;font-size:.85rem;color:#6c757d}
</style>`;

function creativeBody() {
  const services = ['Sturdy Themes', 'Up to Date', 'Ready to Publish', 'Made with Love']
    .map(
      (s) =>
        `<div class="service"><div class="icon"></div><h3>${s}</h3><p class="text-muted">Our themes are updated regularly to keep them bug free!</p></div>`,
    )
    .join('');
  const boxes = Array.from(
    { length: 6 },
    (_, i) =>
      `<a class="portfolio-box" href="#p${i}" title="Project ${i + 1}"><img src="${photo(40 + i, 650, 433)}" width="650" height="433" alt="Project ${i + 1}"><div class="portfolio-box-caption"><div class="project-category text-white-50">Category</div><div class="project-name">Project Name</div></div></a>`,
  ).join('');
  return `<body id="page-top">
<nav class="navbar" id="mainNav"><div class="container"><a class="navbar-brand" href="#page-top">Start Bootstrap</a><ul><li><a class="nav-link" href="#about">About</a></li><li><a class="nav-link" href="#services">Services</a></li><li><a class="nav-link" href="#portfolio">Portfolio</a></li><li><a class="nav-link" href="#contact">Contact</a></li></ul></div></nav>
<header class="masthead"><div class="container"><h1 class="font-weight-bold">Your Favorite Place for Free Bootstrap Themes</h1><hr class="divider"><p>Start Bootstrap can help you build better websites using the Bootstrap framework! Just download a theme and start customizing, no strings attached!</p><a class="btn btn-primary btn-xl" href="#about">Find Out More</a></div></header>
<section class="page-section bg-primary" id="about"><div class="container"><h2 class="text-white">We've got what you need!</h2><hr class="divider divider-light"><p class="text-white-75">Start Bootstrap has everything you need to get your new website up and running in no time!</p><a class="btn btn-light btn-xl" href="#services">Get Started!</a></div></section>
<section class="page-section" id="services"><div class="container"><h2 style="text-align:center">At Your Service</h2><div class="services">${services}</div></div></section>
<div id="portfolio"><div class="portfolio-grid">${boxes}</div></div>
<section class="page-section bg-dark text-white"><div class="container"><h2>Free Download at Start Bootstrap!</h2><a class="btn btn-light btn-xl" href="#download">Download Now!</a></div></section>
<section class="page-section" id="contact"><div class="container"><h2>Let's Get In Touch!</h2><p class="text-muted">Ready to start your next project with us? Send us a message and we will get back to you as soon as possible!</p></div></section>
<footer class="py-5 bg-light"><div class="container">Copyright &copy; 2024 - Company Name</div></footer>
${navbarScript('mainNav', 'navbar-scrolled')}
</body>`;
}

// ── Dark theme with a form (HTML5 UP "Forty"-like) ────────────────────────────────────────────

const DARK_CSS = `<style>
*,*::before,*::after{box-sizing:border-box}
body{margin:0;background:#242943;color:rgba(244,244,255,.8);font-family:"Source Sans Pro","DejaVu Sans",Helvetica,sans-serif;font-size:16px;font-weight:300;line-height:1.65}
a{color:inherit}
#header{position:fixed;top:0;left:0;right:0;z-index:10000;height:52px;display:flex;align-items:center;justify-content:space-between;padding:0 24px;background-color:#2a2f4a;box-shadow:0 0 .25em 0 rgba(0,0,0,.15);transition:background-color .2s ease}
#header.alt{background-color:transparent;box-shadow:none}
#header .logo{font-weight:600;letter-spacing:.25em;text-transform:uppercase;text-decoration:none;border:2px solid #fff;padding:2px 8px;font-size:.8em}
#header nav{display:flex;gap:20px}
#header nav a{text-decoration:none;text-transform:uppercase;letter-spacing:.25em;font-weight:600;font-size:.8em}
#banner{position:relative;padding:192px 0 96px;min-height:75vh;background-image:${cssPhoto(7, 1600, 900)};background-size:cover;background-position:center}
#banner::after{content:"";position:absolute;inset:0;background:#242943;opacity:.85}
#banner .inner{position:relative;z-index:1;max-width:1000px;margin:0 auto;padding:0 24px}
#banner h1{font-size:3.25em;margin:0 0 16px;color:#fff;font-weight:600}
.tiles{display:grid;grid-template-columns:repeat(3,1fr)}
.tiles article{position:relative;height:40vh;min-height:260px;background-size:cover;background-position:center;display:flex;align-items:center;justify-content:center}
.tiles article::before{content:"";position:absolute;inset:0;opacity:.85}
.tiles article:nth-child(3n+1)::before{background:#6fc3df}.tiles article:nth-child(3n+2)::before{background:#8d82c4}.tiles article:nth-child(3n)::before{background:#ec8d81}
.tiles article h3{position:relative;color:#fff;font-size:1.75em;margin:0}
#two{padding:96px 0;background-color:#6fc3df;background-image:linear-gradient(rgba(36,41,67,.9),rgba(36,41,67,.9)),${cssPhoto(8, 1200, 700)};background-size:cover}
#two .inner,#contact .inner{max-width:1000px;margin:0 auto;padding:0 24px}
#two h2,#contact h2{color:#fff;font-size:2em;font-weight:600;margin:0 0 16px}
#contact{padding:96px 0;background:#2e3450}
form .fields{display:grid;grid-template-columns:1fr 1fr;gap:24px}
form .field.full{grid-column:1/-1}
label{display:block;color:#fff;font-weight:600;font-size:.8em;letter-spacing:.25em;text-transform:uppercase;margin:0 0 8px}
input[type=text],input[type=email],input[type=tel],input[type=url],input[type=password],input[type=date],input[type=number],select,textarea{display:block;width:100%;height:44px;padding:0 16px;border:0;border-radius:0;background:rgba(212,212,255,.035);color:inherit;font:inherit}
textarea{height:auto;min-height:120px;padding:12px 16px}
.checks{display:flex;gap:24px;align-items:center}
.actions{margin-top:24px;display:flex;gap:16px}
.button{display:inline-block;height:52px;line-height:52px;padding:0 24px;box-shadow:inset 0 0 0 2px #fff;color:#fff;font-weight:600;letter-spacing:.25em;text-transform:uppercase;background:transparent;border:0;font-size:.8em}
.button.primary{background:#9bf1ff;box-shadow:none;color:#242943}
#footer{padding:64px 24px;background:#1e2238;font-size:.8em}
</style>`;

function darkBody() {
  const tiles = ['Aliquam', 'Tempus', 'Magna', 'Ipsum', 'Consequat', 'Etiam']
    .map(
      (t, i) =>
        `<article style="background-image:${cssPhoto(50 + i, 640, 480).replace(/'/g, '&quot;')}"><h3>${t}</h3></article>`,
    )
    .join('');
  const field = (id, label, input, full = false) =>
    `<div class="field${full ? ' full' : ''}"><label for="${id}">${label}</label>${input}</div>`;
  const fields = [
    field('name', 'Name', '<input type="text" name="name" id="name">'),
    field('email', 'Email', '<input type="email" name="email" id="email">'),
    field('phone', 'Phone', '<input type="tel" name="phone" id="phone">'),
    field('company', 'Company', '<input type="text" name="company" id="company">'),
    field('website', 'Website', '<input type="url" name="website" id="website">'),
    field('password', 'Password', '<input type="password" name="password" id="password">'),
    field('date', 'Date', '<input type="date" name="date" id="date">'),
    field('guests', 'Guests', '<input type="number" name="guests" id="guests" value="2">'),
    field(
      'category',
      'Category',
      '<select name="category" id="category"><option>- Category -</option><option>Manufacturing</option><option>Shipping</option></select>',
    ),
    field(
      'budget',
      'Budget',
      '<select name="budget" id="budget"><option>Under 5k</option><option>5-20k</option></select>',
    ),
    field(
      'priority',
      'Priority',
      '<div class="checks"><label><input type="radio" id="low" name="priority" checked> Low</label><label><input type="radio" id="high" name="priority"> High</label></div>',
    ),
    field(
      'opts',
      'Options',
      '<div class="checks"><label><input type="checkbox" id="copy" name="copy"> Email me a copy</label><label><input type="checkbox" id="human" name="human" checked> Not a robot</label></div>',
    ),
    field('message', 'Message', '<textarea name="message" id="message" rows="6"></textarea>', true),
  ].join('');
  return `<body class="is-preload">
<header id="header" class="alt"><a href="#top" class="logo"><strong>Forty</strong> <span>by HTML5 UP</span></a><nav><a href="#one">Landing</a><a href="#two">Generic</a><a href="#contact">Elements</a><a href="#menu">Menu</a></nav></header>
<section id="banner"><div class="inner"><h1>Hi, my name is Forty</h1><p>A responsive site template designed by HTML5 UP<br>and released under the Creative Commons.</p></div></section>
<section id="one" class="tiles">${tiles}</section>
<section id="two"><div class="inner"><h2>Massa libero</h2><p>Nullam et orci eu lorem consequat tincidunt vivamus et sagittis libero. Mauris aliquet magna magna sed nunc rhoncus pharetra. Pellentesque condimentum sem. In efficitur ligula tate urna. Maecenas laoreet massa vel lacinia pellentesque lorem ipsum dolor.</p><a href="#landing" class="button next">Get Started</a></div></section>
<section id="contact"><div class="inner"><h2>Get in touch</h2><form method="post" action="#" onsubmit="return false"><div class="fields">${fields}</div><div class="actions"><input type="submit" value="Send Message" class="button primary"><input type="reset" value="Clear" class="button"><button type="button" class="button" id="extra-1">Save draft</button></div></form></div></section>
<footer id="footer"><div class="inner">&copy; Untitled. Design: HTML5 UP</div></footer>
${navbarScript('header', 'alt', true)}
</body>`;
}

// ── TodoMVC with web components ───────────────────────────────────────────────────────────────

const TODO_HEAD = `<style>
html,body{margin:0;padding:0}
body{font:14px "Helvetica Neue",Helvetica,Arial,"DejaVu Sans",sans-serif;line-height:1.4em;background:#f5f5f5;color:#111;min-width:230px;max-width:550px;margin:0 auto;font-weight:300}
todo-app{display:block}
.info{margin:65px auto 0;color:#4d4d4d;font-size:11px;text-align:center}
</style>`;

const TODO_SCRIPT = `<script>
const itemCss = \`:host{display:block}
li{position:relative;font-size:24px;border-bottom:1px solid #ededed;background:#fff;list-style:none}
.view{display:flex;align-items:center}
.toggle{width:40px;height:40px;margin:0 0 0 5px;flex:none}
label{word-break:break-all;padding:15px 15px 15px 20px;display:block;line-height:1.2;transition:color .4s;font-weight:400;color:#484848;flex:1}
li.completed label{color:#949494;text-decoration:line-through}
.destroy{display:none;position:absolute;top:0;right:10px;bottom:0;width:40px;height:40px;margin:auto 0;font-size:30px;color:#949494;border:0;background:none;cursor:pointer}
.destroy::after{content:"×";display:block;height:100%;line-height:1.1}
li:hover .destroy{display:block}\`;
class TodoItem extends HTMLElement {
  connectedCallback() {
    if (this.shadowRoot) return;
    const root = this.attachShadow({ mode: 'open' });
    root.innerHTML = '<style>' + itemCss + '</style><li class="' + (this.hasAttribute('completed') ? 'completed' : '') + '"><div class="view"><input class="toggle" type="checkbox"' + (this.hasAttribute('completed') ? ' checked' : '') + '><label></label><button class="destroy" aria-label="Delete"></button></div></li>';
    root.querySelector('label').textContent = this.getAttribute('text');
  }
}
class TodoList extends HTMLElement {
  connectedCallback() {
    if (this.shadowRoot) return;
    const root = this.attachShadow({ mode: 'open' });
    root.innerHTML = '<style>:host{display:block}ul{margin:0;padding:0;list-style:none}</style><ul class="todo-list"><slot></slot></ul>';
  }
}
class TodoApp extends HTMLElement {
  connectedCallback() {
    if (this.shadowRoot) return;
    const root = this.attachShadow({ mode: 'open' });
    root.innerHTML = \`<style>:host{display:block}
section.todoapp{background:#fff;margin:130px 0 40px 0;position:relative;box-shadow:0 2px 4px 0 rgba(0,0,0,.2),0 25px 50px 0 rgba(0,0,0,.1)}
h1{position:absolute;top:-140px;width:100%;font-size:80px;font-weight:200;text-align:center;color:#b83f45;margin:0;text-rendering:optimizeLegibility}
.new-todo{position:relative;margin:0;width:100%;font-size:24px;line-height:1.4em;border:0;padding:16px 16px 16px 60px;height:65px;background:rgba(0,0,0,.003);box-shadow:inset 0 -2px 1px rgba(0,0,0,.03);box-sizing:border-box;font-family:inherit;color:inherit}
.footer{padding:10px 15px;height:20px;text-align:center;font-size:15px;border-top:1px solid #e6e6e6;color:#111}
</style><section class="todoapp"><header class="header"><h1>todos</h1><input class="new-todo" placeholder="What needs to be done?"></header><main class="main"><todo-list></todo-list></main><footer class="footer"><span class="todo-count"></span></footer></section>\`;
    const list = root.querySelector('todo-list');
    const n = Number(this.getAttribute('items') || 300);
    for (let i = 0; i < n; i += 1) {
      const item = document.createElement('todo-item');
      item.setAttribute('text', 'Task ' + (i + 1) + ': ' + ['Buy milk', 'Call the designer', 'Review the hero crop', 'Write the tests'][i % 4]);
      if (i % 5 === 2) item.setAttribute('completed', '');
      list.append(item);
    }
    root.querySelector('.todo-count').textContent = n + ' items left';
  }
}
customElements.define('todo-item', TodoItem);
customElements.define('todo-list', TodoList);
customElements.define('todo-app', TodoApp);
</script>`;

const PAGES = {
  '/real/agency': () => html('Agency - Start Bootstrap Theme', AGENCY_CSS, agencyBody()),
  '/real/creative': () => html('Creative - Start Bootstrap Theme', CREATIVE_CSS, creativeBody()),
  '/real/dark': () => html('Forty by HTML5 UP', DARK_CSS, darkBody()),
  '/real/todo': () =>
    html(
      'TodoMVC: Web Components',
      TODO_HEAD,
      `<body><todo-app items="300"></todo-app><footer class="info"><p>Double-click to edit a todo</p></footer>${TODO_SCRIPT}</body>`,
    ),
};

/** The fixture pages by path, for tests that iterate over them. */
export const REAL_PAGES = Object.keys(PAGES);

const photos = new Map();

/**
 * The response for a fixture path (`/real/...`), or null. Photos are generated once per size and
 * seed (`/real/photo.png?seed=N&w=W&h=H`, each at most 2000 px).
 */
export function realPageResponse(pathname, searchParams) {
  const pageFn = PAGES[pathname];
  if (pageFn) return { type: 'text/html; charset=utf-8', body: pageFn() };
  if (pathname !== '/real/photo.png') return null;
  const num = (name, fallback) => {
    const v = Number(searchParams.get(name) ?? fallback);
    return Number.isInteger(v) && v > 0 && v <= 2000 ? v : fallback;
  };
  const seed = num('seed', 1);
  const w = num('w', 800);
  const h = num('h', 600);
  const key = `${seed}/${w}/${h}`;
  let png = photos.get(key);
  if (!png) {
    png = photoPng(w, h, seed);
    photos.set(key, png);
  }
  return { type: 'image/png', body: png };
}

/**
 * In the page (pass to page.evaluate): resolves once every image and background image has
 * loaded and decoded, and fonts are ready, so screenshots compare like with like.
 */
export async function pageSettled() {
  const urls = new Set();
  for (const el of document.querySelectorAll('*')) {
    for (const pseudo of [null, '::before', '::after']) {
      const bg = getComputedStyle(el, pseudo).backgroundImage;
      for (const m of bg.matchAll(/url\("([^"]+)"\)/g)) urls.add(m[1]);
    }
  }
  await Promise.all([
    ...Array.from(document.images, (img) => img.decode().catch(() => undefined)),
    ...Array.from(urls, (src) => {
      const img = new Image();
      img.src = src;
      return img.decode().catch(() => undefined);
    }),
    document.fonts.ready,
  ]);
  await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  return { scrollHeight: document.documentElement.scrollHeight, viewport: innerHeight };
}

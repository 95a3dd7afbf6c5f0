// Tracking stubs: the crawler never runs JavaScript.
function initShop() {}
function initComments() {}
function track() {}
function trackView() {}
function preview() {}
function addToBasket() {}

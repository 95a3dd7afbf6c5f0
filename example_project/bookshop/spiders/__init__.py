"""The bookshop spiders: ``bookstore`` (the main crawl) and ``chapters`` (EPUB)."""

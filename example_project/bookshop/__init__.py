"""The bookshop Scrapy project: spiders for the bundled Paper Lantern Books site."""

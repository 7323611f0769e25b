"""Deterministic seed data for the retail domain: our own catalogue, customers and orders.

`generate(seed)` draws everything from one `random.Random(seed)`, so the same seed always gives the
same rows. Shapes and sizes follow the published retail tables (50 products with variants, 500 users,
1000 orders in the four seed statuses); names, ids and values are our own.
"""

from __future__ import annotations

import random
from typing import Any

from sqlmodel import SQLModel

from taue.envs.retail.models import Order, Product, User
from taue.envs.runtime.money import cents

USER_COUNT = 500
ORDER_COUNT = 1000
STATUS_WEIGHTS = {"pending": 42, "processed": 10, "delivered": 37, "cancelled": 11}
ORDERS_PER_USER_WEIGHTS = {0: 12, 1: 27, 2: 28, 3: 20, 4: 8, 5: 3, 6: 1, 7: 1}
METHODS_PER_USER_WEIGHTS = {1: 64, 2: 28, 3: 6, 4: 2}
CARD_BRANDS = ("visa", "mastercard", "amex", "discover")

# One product type per line: name | base price | option=value,value; option=value,...
_CATALOGUE_TABLE = """
Rain Jacket | 89 | size=S,M,L,XL; color=navy,olive,yellow,black; hood=packable,fixed
Wool Sweater | 74 | size=S,M,L,XL; color=cream,grey,forest green; knit=cable,ribbed
Denim Jeans | 58 | waist=28,30,32,34,36; fit=slim,straight,relaxed; wash=light,dark
Linen Shirt | 42 | size=S,M,L,XL; color=white,sand,sky blue; sleeve=short,long
Winter Gloves | 29 | size=S,M,L; material=leather,fleece,wool; touchscreen=yes,no
Beanie | 19 | color=red,black,mustard,teal; material=acrylic,merino
Trail Runners | 119 | size=7,8,9,10,11,12; color=orange,grey,blue; waterproof=yes,no
Leather Belt | 35 | length=32in,36in,40in,44in; color=brown,black; buckle=silver,brass
Swim Shorts | 31 | size=S,M,L,XL; pattern=solid,striped,floral
Hoodie | 48 | size=S,M,L,XL,XXL; color=heather grey,black,maroon; zipper=full zip,pullover
Cast Iron Skillet | 39 | diameter=8in,10in,12in; finish=pre-seasoned,enamel
Chef Knife | 64 | blade length=6in,8in,10in; steel=stainless,carbon,damascus
Cutting Board | 27 | material=bamboo,walnut,plastic; size=small,medium,large
Stand Mixer | 279 | color=red,white,silver,pistachio; bowl size=4.5qt,5qt,6qt
Blender | 99 | power=700W,1000W,1500W; jar=glass,plastic; color=black,white
Toaster | 45 | slots=2,4; color=chrome,black,cream; width=standard,wide
Rice Cooker | 69 | capacity=3 cups,6 cups,10 cups; feature=basic,fuzzy logic
Throw Blanket | 38 | material=cotton,faux fur,wool; color=ivory,rust,slate
Bath Towel Set | 52 | pieces=4,6,8; color=white,navy,sage; material=cotton,bamboo
Duvet Cover | 66 | size=twin,queen,king; color=white,charcoal,dusty rose; fabric=percale,sateen
Floor Lamp | 84 | style=arc,tripod,torchiere; finish=black,brass,white
Ceramic Vase | 33 | height=8in,12in,16in; glaze=matte white,speckled,celadon
Area Rug | 149 | size=4x6,5x8,8x10; pattern=geometric,solid,vintage; color=blue,beige,grey
Wall Mirror | 96 | shape=round,rectangular,arched; frame=gold,black,wood
Storage Basket | 24 | material=seagrass,cotton rope,wire; size=small,medium,large
Computer Monitor | 239 | size=24in,27in,32in; resolution=1080p,1440p,4K; panel=IPS,VA
Webcam | 59 | resolution=720p,1080p,4K; microphone=yes,no
USB-C Hub | 44 | ports=4,7,10; color=space grey,silver
Smart Speaker | 89 | color=charcoal,chalk,sand; size=mini,standard; assistant=voice A,voice B
Fitness Tracker | 99 | band=silicone,fabric,metal; color=black,pink,blue; gps=yes,no
Drone | 449 | camera=2.7K,4K; battery=standard,extended; color=grey,white
Projector | 329 | resolution=720p,1080p,4K; brightness=2000 lumens,3500 lumens
Soundbar | 199 | channels=2.0,2.1,5.1; color=black,white; connectivity=bluetooth,wifi
Graphics Tablet | 129 | size=small,medium,large; pen=standard,pro
Robot Vacuum | 299 | navigation=gyro,lidar; mop=yes,no; color=black,white
Camping Tent | 179 | capacity=1 person,2 person,4 person; season=3-season,4-season; color=green,orange
Sleeping Bag | 94 | rating=15F,30F,45F; fill=down,synthetic; length=regular,long
Kayak Paddle | 119 | length=220cm,230cm,240cm; shaft=aluminum,carbon
Tennis Racket | 139 | head size=98sq in,100sq in,105sq in; grip=4 1/8,4 1/4,4 3/8; weight=280g,300g
Climbing Harness | 69 | size=XS,S,M,L,XL; type=sport,trad
Trekking Poles | 59 | material=aluminum,carbon; lock=twist,lever; color=red,black,blue
Cooler Box | 129 | capacity=20qt,45qt,65qt; color=white,tan,navy; wheels=yes,no
Hammock | 49 | size=single,double; material=nylon,cotton; color=blue,green
Board Game | 39 | edition=standard,deluxe; language=English,Spanish,French
Desk Organizer | 26 | material=wood,metal mesh,acrylic; compartments=3,5,7
Fountain Pen | 54 | nib=fine,medium,broad; color=black,burgundy,green; filling=cartridge,piston
Plant Pot | 22 | diameter=6in,8in,10in; material=terracotta,ceramic,concrete
Bird Feeder | 31 | style=tube,hopper,platform; material=metal,wood
Dog Leash | 21 | length=4ft,6ft,retractable; color=red,black,orange; material=nylon,leather
Cat Tree | 109 | height=36in,52in,70in; color=beige,grey
"""


def _parse_catalogue(table: str) -> dict[str, tuple[float, dict[str, list[str]]]]:
    catalogue = {}
    for line in table.strip().splitlines():
        name, base, options = (part.strip() for part in line.split("|"))
        pairs = (option.split("=") for option in options.split("; "))
        catalogue[name] = (float(base), {key: values.split(",") for key, values in pairs})
    return catalogue


CATALOGUE = _parse_catalogue(_CATALOGUE_TABLE)
"""Product name -> (base price, {option: values}); 50 product types."""


def _words(text: str, separator: str | None = None) -> tuple[str, ...]:
    return tuple(part.strip() for part in text.split(separator) if part.strip())


FIRST_NAMES = _words(
    "Adele Bruno Carmen Dmitri Elena Farid Greta Hugo Ines Jonas Kaito Leila Marco Nadia Oscar Priya "
    "Quentin Rosa Samir Tamsin Umar Vera Wendell Ximena Yusuf Zara Anton Beatriz Cedric Daria Emil "
    "Fiona Gideon Hana Ivo Juno Kofi Lucia Mateo Nora Otto Paloma Rafael Sunita Tobias Ulla Viktor "
    "Wren Yasmin Zeke "
)
LAST_NAMES = _words(
    "Abernathy Bellweather Castellano Dunmore Eriksen Fairbanks Gallo Hartwell Ibarra Jovanovic "
    "Kowalczyk Lindqvist Moreau Nakamura Okafor Pellegrini Quinlan Rasmussen Sorensen Takahashi "
    "Underwood Valdez Whitaker Xu Yilmaz Zeller Achebe Brennan Cordova Delacroix Esposito Fitzgerald "
    "Grimaldi Holloway Iqbal Jensen Kapoor Laurent Mbeki Novak "
)
STREETS = _words(
    "Alder Court, Birchwood Avenue, Canal Street, Dogwood Lane, Elm Terrace, Foxglove Way, Granite "
    "Road, Harbor View Drive, Ironwood Place, Juniper Street, Kestrel Boulevard, Lantern Row, "
    "Marigold Circle, Northgate Road, Orchard Path, Pinecrest Drive, Quarry Lane, Riverside Walk, "
    "Sycamore Street, Tidewater Avenue, Upland Road, Vineyard Lane, Willow Bend, Yarrow Court ",
    ",",
)
CITIES = tuple(
    tuple(entry.split("/"))
    for entry in _words(
        "Portland/OR/972, Tucson/AZ/857, Madison/WI/537, Raleigh/NC/276, Boise/ID/837, Savannah/GA/314, "
        "Albuquerque/NM/871, Omaha/NE/681, Providence/RI/029, Spokane/WA/992, Richmond/VA/232, "
        "Tulsa/OK/741, Burlington/VT/054, Lexington/KY/405, Sacramento/CA/958, Austin/TX/787, "
        "Columbus/OH/432, Pittsburgh/PA/152, Minneapolis/MN/554, Orlando/FL/328 ",
        ",",
    )
)
"""(city, state, first three digits of its zip codes)."""


class _Ids:
    """Unique random ids of a fixed shape."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.used: set[str] = set()

    def digits(self, prefix: str, count: int) -> str:
        while True:
            value = f"{prefix}{self.rng.randint(10 ** (count - 1), 10**count - 1)}"
            if value not in self.used:
                self.used.add(value)
                return value


def _weighted(rng: random.Random, weights: dict[Any, int]) -> Any:
    return rng.choices(list(weights), weights=list(weights.values()))[0]


def _products(rng: random.Random, ids: _Ids) -> list[Product]:
    products = []
    for name, (base, options) in CATALOGUE.items():
        combos: list[dict[str, str]] = [{}]
        for option, values in options.items():
            combos = [{**combo, option: value} for combo in combos for value in values]
        chosen = rng.sample(combos, min(len(combos), rng.randint(7, 22)))
        variants = {}
        for combo in chosen:
            item_id = ids.digits("", 10)
            price = cents(base * rng.uniform(0.85, 1.25))
            variants[item_id] = {
                "item_id": item_id,
                "options": combo,
                "available": rng.random() < 0.64,
                "price": price,
            }
        products.append(Product(product_id=ids.digits("", 10), name=name, variants=variants))
    return products


def _address(rng: random.Random) -> dict[str, str]:
    city, state, zip_prefix = rng.choice(CITIES)
    unit = rng.random()
    address2 = (
        f"Suite {rng.randint(100, 999)}" if unit < 0.5 else f"Apt {rng.randint(1, 60)}" if unit < 0.85 else ""
    )
    return {
        "address1": f"{rng.randint(10, 9899)} {rng.choice(STREETS)}",
        "address2": address2,
        "city": city,
        "country": "USA",
        "state": state,
        "zip": f"{zip_prefix}{rng.randint(0, 99):02d}",
    }


def _payment_method(rng: random.Random, ids: _Ids) -> dict[str, Any]:
    source = rng.choice(("credit_card", "credit_card", "paypal", "gift_card"))
    method_id = ids.digits(f"{source}_", 7)
    if source == "credit_card":
        last_four = f"{rng.randint(0, 9999):04d}"
        return {"source": source, "brand": rng.choice(CARD_BRANDS), "last_four": last_four, "id": method_id}
    if source == "gift_card":
        return {
            "source": source,
            "balance": rng.choice((rng.randint(0, 120), rng.randint(100, 600))),
            "id": method_id,
        }
    return {"source": source, "id": method_id}


def _users(rng: random.Random, ids: _Ids) -> list[User]:
    users: list[User] = []
    while len(users) < USER_COUNT:
        first, last = rng.choice(FIRST_NAMES), rng.choice(LAST_NAMES)
        user_id = f"{first.lower()}_{last.lower()}_{rng.randint(1000, 9999)}"
        if user_id in ids.used:
            continue
        ids.used.add(user_id)
        methods = [_payment_method(rng, ids) for _ in range(_weighted(rng, METHODS_PER_USER_WEIGHTS))]
        users.append(
            User(
                user_id=user_id,
                name={"first_name": first, "last_name": last},
                address=_address(rng),
                email=f"{first.lower()}.{last.lower()}{rng.randint(1000, 9999)}@example.com",
                payment_methods={method["id"]: method for method in methods},
                orders=[],
            )
        )
    return users


def _order_counts(rng: random.Random) -> list[int]:
    counts = [_weighted(rng, ORDERS_PER_USER_WEIGHTS) for _ in range(USER_COUNT)]
    while sum(counts) != ORDER_COUNT:
        index = rng.randrange(USER_COUNT)
        if sum(counts) < ORDER_COUNT:
            counts[index] += 1
        elif counts[index] > 0:
            counts[index] -= 1
    return counts


def _items(rng: random.Random, products: list[Product]) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    for _ in range(rng.randint(1, 5)):
        if items and rng.random() < 0.004:
            items.append(dict(items[-1]))
            continue
        product = rng.choice(products)
        variant = rng.choice(list(product.variants.values()))
        items.append(
            {
                "name": product.name,
                "product_id": product.product_id,
                "item_id": variant["item_id"],
                "price": variant["price"],
                "options": dict(variant["options"]),
            }
        )
    return items


def _order(rng: random.Random, ids: _Ids, user: User, products: list[Product]) -> Order:
    items = _items(rng, products)
    status = _weighted(rng, STATUS_WEIGHTS)
    method_id = rng.choice(list(user.payment_methods))
    amount = cents(sum(item["price"] for item in items))
    history = [{"transaction_type": "payment", "amount": amount, "payment_method_id": method_id}]
    if status == "cancelled":
        history.append({"transaction_type": "refund", "amount": amount, "payment_method_id": method_id})
    fulfillments = []
    if status != "pending":
        tracking = ids.digits("", 12)
        fulfillments = [{"tracking_id": [tracking], "item_ids": [item["item_id"] for item in items]}]
    address = dict(user.address) if rng.random() < 0.8 else _address(rng)
    return Order(
        order_id=ids.digits("#W", 7),
        user_id=user.user_id,
        address=address,
        items=items,
        fulfillments=fulfillments,
        status=status,
        payment_history=history,
    )


def generate(seed: int) -> list[SQLModel]:
    """All seed rows (products, users, orders) for `seed`; the same seed gives the same rows."""
    rng = random.Random(seed)
    ids = _Ids(rng)
    products = _products(rng, ids)
    users = _users(rng, ids)
    orders = []
    for user, count in zip(users, _order_counts(rng), strict=True):
        for _ in range(count):
            order = _order(rng, ids, user, products)
            user.orders.append(order.order_id)
            orders.append(order)
    return [*products, *users, *orders]
